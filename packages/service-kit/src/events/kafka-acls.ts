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

/**
 * The topics each principal's consumer groups read: its only READ grants on topics (besides
 * its own groups' dead letters). The one list the ACLs (`aclsOf`), the Strimzi KafkaUsers
 * (infra/k8s/engines/kafka-users.yaml) and compose's commands are generated from, and that
 * every service is held to when it starts: a consumer whose handlers need a topic missing
 * here refuses to start (`assertReadsGranted`, called by the events plugin), so a new
 * subscription cannot pass its tests locally and then fail on a broker that authorizes.
 * `message.sent` carries a private message's text and `user.registered` an e-mail address:
 * whoever is not listed for a topic cannot read it. The gateway reads nothing.
 */
export const TOPICS_READ: Record<KafkaPrincipal, readonly string[]> = {
  auth: [Topics.authUsers, Topics.peopleUsers],
  people: [
    Topics.authUsers,
    Topics.peopleUsers,
    Topics.jobsPosts,
    Topics.jobsRequests,
    Topics.peopleRequests,
    Topics.reports,
  ],
  jobs: [
    Topics.authUsers,
    Topics.peopleUsers,
    Topics.jobsPosts,
    Topics.jobsRequests,
    Topics.peopleRequests,
    Topics.reports,
  ],
  favorites: [Topics.authUsers, Topics.peopleUsers, Topics.jobsPosts],
  reports: [Topics.authUsers, Topics.peopleUsers, Topics.jobsPosts, Topics.conversations],
  notifications: [
    Topics.authUsers,
    Topics.peopleUsers,
    // New and relisted posts, matched against saved searches (docs/saved-searches.md).
    Topics.jobsPosts,
    Topics.jobsRequests,
    Topics.peopleRequests,
    Topics.favorites,
    Topics.notifications,
    Topics.conversations,
    // post.expiring and post.closed: a post's life (docs/posts.md).
    Topics.jobsPosts,
  ],
  media: [Topics.peopleUsers, Topics.jobsPosts],
  conversations: [
    Topics.authUsers,
    Topics.peopleUsers,
    Topics.jobsPosts,
    Topics.jobsRequests,
    Topics.peopleRequests,
    Topics.reports,
  ],
  analytics: [Topics.authUsers, Topics.peopleUsers, ANALYTICS_TOPIC],
  gateway: [],
}

/**
 * Throws when `principal` (a service's name) consumes a topic TOPICS_READ does not grant it.
 * A name that is no principal of the product (a test's own app) is not checked.
 */
export function assertReadsGranted(principal: string, topics: readonly string[]): void {
  if (!(KAFKA_PRINCIPALS as readonly string[]).includes(principal)) return
  const granted = new Set(TOPICS_READ[principal as KafkaPrincipal])
  const missing = [...new Set(topics)].filter((topic) => !granted.has(topic)).sort()
  if (missing.length > 0) {
    throw new Error(
      `${principal} consumes ${missing.join(', ')}, which TOPICS_READ (service-kit ` +
        `events/kafka-acls.ts) does not grant it: add the topic there, then regenerate the ` +
        `ACLs (scripts/kafka-acls.mjs) so the broker lets it read.`,
    )
  }
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
 * What one principal may do: produce to (and create, describe) the topics it owns; read
 * exactly the topics its consumer groups subscribe to (TOPICS_READ) and its own groups' dead
 * letters (`<group>.dead-letter`, under its `<service>-` prefix); write the shared dead-letter
 * topic of malformed messages; use the consumer groups named after it. DESCRIBE on every
 * topic lets a service list the topics at start (ensureTopics) and reveals names and
 * partitions, never a message. Nothing else: a service producing to another's topic, or
 * reading one it does not subscribe to, gets TOPIC_AUTHORIZATION_FAILED. The gateway, which
 * only produces analytics events, has no READ and no consumer group at all.
 */
export function aclsOf(service: KafkaPrincipal): AclEntry[] {
  const { TOPIC, GROUP } = AclResourceTypes
  const { PREFIXED, LITERAL } = ResourcePatternTypes
  const { WRITE, CREATE, DESCRIBE, READ, DELETE } = AclOperationTypes
  const consumes = service !== 'gateway'
  return [
    ...OWNED_PREFIXES[service].flatMap((prefix) =>
      allow(service, TOPIC, prefix, PREFIXED, [
        WRITE,
        CREATE,
        DESCRIBE,
        // Its own groups' dead letters (`<service>-...`), which redriveDeadLetters reads back.
        ...(prefix.endsWith('-') ? [READ] : []),
      ]),
    ),
    ...TOPICS_READ[service].flatMap((topic) => allow(service, TOPIC, topic, LITERAL, [READ])),
    ...allow(service, TOPIC, '*', LITERAL, [DESCRIBE]),
    ...(consumes
      ? [
          ...allow(service, TOPIC, DEAD_LETTER_TOPIC, LITERAL, [WRITE]),
          ...allow(service, GROUP, service, PREFIXED, [READ, DESCRIBE, DELETE]),
        ]
      : []),
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

/** Strimzi's names of the operations and pattern types (KafkaUser `spec.authorization.acls`). */
const STRIMZI_OPERATION: Partial<Record<AclOperationTypes, string>> = {
  [AclOperationTypes.WRITE]: 'Write',
  [AclOperationTypes.CREATE]: 'Create',
  [AclOperationTypes.DESCRIBE]: 'Describe',
  [AclOperationTypes.READ]: 'Read',
  [AclOperationTypes.DELETE]: 'Delete',
}

/**
 * The Strimzi KafkaUsers of every principal (infra/k8s/engines/kafka-users.yaml), printed
 * from the same ACLs: one user per principal with its SCRAM password from the
 * marketplace-kafka Secret, one ACL line per resource with all its operations.
 * `node scripts/kafka-acls.mjs --kafka-users` writes it; a test keeps the file equal.
 */
export function strimziKafkaUsers(): string {
  const header = [
    '# Generated by: node scripts/kafka-acls.mjs --kafka-users > infra/k8s/engines/kafka-users.yaml',
    '# One Kafka principal per deployable (SCRAM-SHA-512), with the ACLs of',
    '# packages/service-kit/src/events/kafka-acls.ts (aclsOf; a test keeps this file equal to it):',
    '# write (and create, describe) the topics it owns; read only the topics its consumer groups',
    '# subscribe to (TOPICS_READ); describe every topic; write the shared dead-letters topic and',
    '# use the consumer groups named after it (not the gateway, which reads nothing). The password',
    "# is the one the service's pods read (marketplace-kafka Secret, secrets.example.yaml).",
  ]
  const quoteIfNeeded = (name: string) => (/^[a-z][a-z-]*[a-z]$/.test(name) ? name : `"${name}"`)
  const users = KAFKA_PRINCIPALS.map((principal) => {
    const grouped = new Map<string, AclEntry[]>()
    for (const entry of aclsOf(principal)) {
      const key = `${entry.resourceType}|${entry.resourceName}|${entry.resourcePatternType}`
      grouped.set(key, [...(grouped.get(key) ?? []), entry])
    }
    const acls = [...grouped.values()].flatMap((entries) => {
      const [first] = entries as [AclEntry]
      const type = first.resourceType === AclResourceTypes.GROUP ? 'group' : 'topic'
      const pattern =
        first.resourcePatternType === ResourcePatternTypes.PREFIXED ? 'prefix' : 'literal'
      const operations = entries.map((entry) => STRIMZI_OPERATION[entry.operation]).join(', ')
      return [
        `      - resource: { type: ${type}, name: ${quoteIfNeeded(first.resourceName)}, patternType: ${pattern} }`,
        `        operations: [${operations}]`,
      ]
    })
    return [
      '---',
      'apiVersion: kafka.strimzi.io/v1',
      'kind: KafkaUser',
      'metadata:',
      `  name: ${principal}`,
      '  labels:',
      '    strimzi.io/cluster: marketplace',
      'spec:',
      '  authentication:',
      '    type: scram-sha-512',
      '    password:',
      '      valueFrom:',
      `        secretKeyRef: { name: marketplace-kafka, key: ${principal.toUpperCase()}_KAFKA_PASSWORD }`,
      '  authorization:',
      '    type: simple',
      '    acls:',
      ...acls,
    ]
  })
  return [...header, ...users.flat()].join('\n') + '\n'
}
