import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  ResourcePatternTypes,
  type AclEntry,
  type Admin,
} from 'kafkajs'
import { ANALYTICS_TOPIC } from '@marketplace/contracts/marketplace'
import { Topics } from '@marketplace/contracts/events'
import { DEAD_LETTER_TOPIC } from './kafka-client'

/**
 * The Kafka principals, one per deployable, each authenticated with SASL/SCRAM as its own
 * user (KAFKA_SASL_USERNAME), and the topics it owns: it alone may produce to them. Every
 * topic is named `<owner>.<stream>` (the registry's Topics), the dead letters of a group
 * `<group>.dead-letter` and every group starts with its service's name, so the owner's name
 * is the prefix of all it writes. The gateway owns the analytics stream (`analytics.`); the
 * analytics service, which reads it, owns its groups (`analytics-`).
 */
export const KAFKA_PRINCIPALS = [
  'auth',
  'people',
  'jobs',
  'favorites',
  'reports',
  'notifications',
  'media',
  'conversations',
  'analytics',
  'gateway',
] as const
export type KafkaPrincipal = (typeof KAFKA_PRINCIPALS)[number]

const OWNED_PREFIXES: Record<KafkaPrincipal, string[]> = {
  auth: ['auth.', 'auth-'],
  people: ['people.', 'people-'],
  jobs: ['jobs.', 'jobs-'],
  favorites: ['favorites.', 'favorites-'],
  reports: ['reports.', 'reports-'],
  notifications: ['notifications.', 'notifications-'],
  media: ['media.', 'media-'],
  conversations: ['conversations.', 'conversations-'],
  // It reads the gateway's analytics stream and writes only its groups' dead letters.
  analytics: ['analytics-'],
  gateway: [ANALYTICS_TOPIC.slice(0, ANALYTICS_TOPIC.indexOf('.') + 1)],
}

/** Every topic the product uses; created by the operator with the ACLs (`applyKafkaAcls`). */
export const PRODUCT_TOPICS: readonly string[] = [
  ...Object.values(Topics),
  ANALYTICS_TOPIC,
  DEAD_LETTER_TOPIC,
]

function allow(
  principal: string,
  resourceType: AclResourceTypes,
  resourceName: string,
  resourcePatternType: ResourcePatternTypes,
  operations: AclOperationTypes[],
): AclEntry[] {
  return operations.map((operation) => ({
    resourceType,
    resourceName,
    resourcePatternType,
    principal: `User:${principal}`,
    host: '*',
    operation,
    permissionType: AclPermissionTypes.ALLOW,
  }))
}

/**
 * What one service may do (issue 18 §10): produce to (and create, describe, read) the topics it
 * owns; read every topic (it consumes other services' events); write the shared dead-letter
 * topic of malformed messages; use the consumer groups named after it. Nothing else: a
 * service producing to another's topic gets TOPIC_AUTHORIZATION_FAILED.
 */
export function aclsOf(service: KafkaPrincipal): AclEntry[] {
  const { TOPIC, GROUP } = AclResourceTypes
  const { PREFIXED, LITERAL } = ResourcePatternTypes
  const { WRITE, CREATE, DESCRIBE, READ, DELETE } = AclOperationTypes
  return [
    ...OWNED_PREFIXES[service].flatMap((prefix) =>
      allow(service, TOPIC, prefix, PREFIXED, [WRITE, CREATE, DESCRIBE, READ]),
    ),
    ...allow(service, TOPIC, '*', LITERAL, [READ, DESCRIBE]),
    ...allow(service, TOPIC, DEAD_LETTER_TOPIC, LITERAL, [WRITE]),
    ...allow(service, GROUP, service, PREFIXED, [READ, DESCRIBE, DELETE]),
  ]
}

/**
 * Creates the product's topics and every service's ACLs on a broker that authorizes, as its
 * administrator: idempotent (existing topics and ACLs stay). `scripts/kafka-acls.mjs` runs it.
 */
export async function applyKafkaAcls(
  admin: Admin,
  options: { services?: readonly KafkaPrincipal[]; partitions?: number } = {},
): Promise<{ topicsCreated: number; acls: number }> {
  const existing = new Set(await admin.listTopics())
  const missing = PRODUCT_TOPICS.filter((topic) => !existing.has(topic))
  if (missing.length > 0) {
    await admin.createTopics({
      topics: missing.map((topic) => ({ topic, numPartitions: options.partitions ?? 3 })),
      waitForLeaders: true,
    })
  }
  const acl = (options.services ?? KAFKA_PRINCIPALS).flatMap(aclsOf)
  await admin.createAcls({ acl })
  return { topicsCreated: missing.length, acls: acl.length }
}

/**
 * The same topics and ACLs as Kafka's own command-line tools run them (for an operator, and
 * for compose, whose Kafka container has the tools but no Node): one `kafka-topics.sh` per
 * topic and one `kafka-acls.sh` per principal and resource, with all its operations.
 */
export function kafkaAclCommands(options: { bootstrap: string; commandConfig: string }): string[] {
  const connect = `--bootstrap-server ${options.bootstrap} --command-config ${options.commandConfig}`
  const nameOf = (table: Record<string, string | number>, value: number) =>
    Object.keys(table)
      .find((key) => table[key] === value)!
      .toLowerCase()
  const topics = PRODUCT_TOPICS.map(
    (topic) =>
      `kafka-topics.sh ${connect} --create --if-not-exists --topic ${topic} --partitions 3`,
  )
  const grouped = new Map<string, AclEntry[]>()
  for (const service of KAFKA_PRINCIPALS) {
    for (const entry of aclsOf(service)) {
      const key = `${entry.principal}|${entry.resourceType}|${entry.resourceName}|${entry.resourcePatternType}`
      grouped.set(key, [...(grouped.get(key) ?? []), entry])
    }
  }
  const acls = [...grouped.values()].map((entries) => {
    const [first] = entries as [AclEntry]
    const operations = entries
      .map((entry) => `--operation ${nameOf(AclOperationTypes, entry.operation)}`)
      .join(' ')
    return (
      `kafka-acls.sh ${connect} --add --allow-principal ${first.principal} ${operations} ` +
      `--${nameOf(AclResourceTypes, first.resourceType)} '${first.resourceName}' ` +
      `--resource-pattern-type ${nameOf(ResourcePatternTypes, first.resourcePatternType)}`
    )
  })
  return [...topics, ...acls]
}
