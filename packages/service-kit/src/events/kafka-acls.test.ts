import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { AclOperationTypes, AclResourceTypes, ResourcePatternTypes } from 'kafkajs'
import { Topics } from '@marketplace/contracts/events'
import { KAFKA_PRINCIPALS, aclsOf, kafkaAclCommands } from './kafka-acls'

const repoRoot = join(__dirname, '..', '..', '..', '..')

/** Whether `service`'s ACLs let it write `topic` (what the broker's authorizer decides). */
function mayWrite(service: (typeof KAFKA_PRINCIPALS)[number], topic: string): boolean {
  return aclsOf(service).some(
    (acl) =>
      acl.resourceType === AclResourceTypes.TOPIC &&
      acl.operation === AclOperationTypes.WRITE &&
      (acl.resourcePatternType === ResourcePatternTypes.PREFIXED
        ? topic.startsWith(acl.resourceName)
        : acl.resourceName === topic || acl.resourceName === '*'),
  )
}

describe('Kafka ACLs per service (issue 18 §10)', () => {
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

  it('is what compose applies: infra/compose/kafka/acls.commands is the generator’s output', () => {
    const committed = readFileSync(join(repoRoot, 'infra/compose/kafka/acls.commands'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
    expect(committed).toEqual(
      kafkaAclCommands({ bootstrap: 'kafka:9092', commandConfig: '/tmp/admin.properties' }),
    )
  })
})
