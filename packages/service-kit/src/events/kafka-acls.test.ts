import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { AclOperationTypes, AclResourceTypes, ResourcePatternTypes } from 'kafkajs'
import { Topics } from '@marketplace/contracts/events'
import { ANALYTICS_TOPIC } from '@marketplace/contracts/marketplace'
import {
  KAFKA_PRINCIPALS,
  TOPICS_READ,
  aclsOf,
  assertReadsGranted,
  kafkaAclCommands,
  strimziKafkaUsers,
} from './kafka-acls'

const repoRoot = join(__dirname, '..', '..', '..', '..')

/** Whether `service`'s ACLs let it write `topic` (what the broker's authorizer decides). */
function mayWrite(service: (typeof KAFKA_PRINCIPALS)[number], topic: string): boolean {
  return may(service, AclOperationTypes.WRITE, topic)
}

function may(
  service: (typeof KAFKA_PRINCIPALS)[number],
  operation: AclOperationTypes,
  topic: string,
): boolean {
  return aclsOf(service).some(
    (acl) =>
      acl.resourceType === AclResourceTypes.TOPIC &&
      acl.operation === operation &&
      (acl.resourcePatternType === ResourcePatternTypes.PREFIXED
        ? topic.startsWith(acl.resourceName)
        : acl.resourceName === topic || acl.resourceName === '*'),
  )
}

describe('Kafka ACLs per service', () => {
  it('lets each service produce to its own topics and to no other service’s', () => {
    for (const topic of Object.values(Topics)) {
      const owner = topic.slice(0, topic.indexOf('.'))
      const writers = KAFKA_PRINCIPALS.filter((service) => mayWrite(service, topic))
      expect({ topic, writers }).toEqual({ topic, writers: [owner] })
    }
    expect(KAFKA_PRINCIPALS.filter((service) => mayWrite(service, 'analytics.events'))).toEqual([
      'gateway',
    ])
    // A group's dead letters are its service's own: `jobs-users` writes `jobs-users.dead-letter`.
    expect(mayWrite('jobs', 'jobs-users.dead-letter')).toBe(true)
    expect(mayWrite('jobs', 'people-posts.dead-letter')).toBe(false)
  })

  it('lets each service read only the topics its consumers subscribe to; the gateway none', () => {
    const readers = (topic: string) =>
      KAFKA_PRINCIPALS.filter((service) => may(service, AclOperationTypes.READ, topic))
    // Private messages (message.sent carries the text) and e-mail addresses (user.registered).
    expect(readers(Topics.conversations)).toEqual(['reports', 'notifications'])
    expect(readers(Topics.authUsers)).not.toContain('gateway')
    expect(readers(ANALYTICS_TOPIC)).toEqual(['analytics'])
    for (const topic of [...Object.values(Topics), ANALYTICS_TOPIC, 'dead-letters']) {
      expect({ topic, gateway: may('gateway', AclOperationTypes.READ, topic) }).toEqual({
        topic,
        gateway: false,
      })
    }
    for (const service of KAFKA_PRINCIPALS) {
      const read = Object.values(Topics).filter((topic) =>
        may(service, AclOperationTypes.READ, topic),
      )
      expect({ service, read }).toEqual({
        service,
        read: Object.values(Topics).filter((topic) => TOPICS_READ[service].includes(topic)),
      })
    }
    expect(aclsOf('gateway').some((acl) => acl.resourceType === AclResourceTypes.GROUP)).toBe(false)
  })

  it('a service whose consumers need a topic not granted to it refuses to start', () => {
    expect(() => assertReadsGranted('media', [Topics.jobsPosts, Topics.conversations])).toThrow(
      /media consumes conversations\.conversations, which TOPICS_READ/,
    )
    expect(() => assertReadsGranted('media', [Topics.jobsPosts])).not.toThrow()
    // An app that is no principal of the product (a test's own) is not checked.
    expect(() => assertReadsGranted('some-test-app', [Topics.conversations])).not.toThrow()
  })

  it('is what Kubernetes applies: infra/k8s/engines/kafka-users.yaml is the generator’s output', () => {
    const committed = readFileSync(join(repoRoot, 'infra/k8s/engines/kafka-users.yaml'), 'utf8')
    expect(committed).toBe(strimziKafkaUsers())
  })

  it('is what compose applies: infra/compose/kafka/acls.commands is the generator’s output', () => {
    const committed = readFileSync(join(repoRoot, 'infra/compose/kafka/acls.commands'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
    expect(committed).toEqual(
      kafkaAclCommands({ bootstrap: 'kafka:9092', commandConfig: '/tmp/admin.properties' }),
    )
  })
})
