import { Kafka, logLevel, type Admin } from 'kafkajs'
import { infraEnv } from './infra-env'

/** Runs `use` with an admin client of the test broker, disconnected afterwards. */
async function withAdmin<T>(use: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = new Kafka({
    brokers: infraEnv().kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
  }).admin()
  await admin.connect()
  try {
    return await use(admin)
  } finally {
    await admin.disconnect()
  }
}

async function groupsNamed(admin: Admin, prefix: string): Promise<string[]> {
  return (await admin.listGroups()).groups
    .map((group) => group.groupId)
    .filter((id) => id.startsWith(prefix))
    .sort()
}

/** The consumer groups the broker knows whose names start with `prefix`, sorted. */
export function consumerGroupsNamed(prefix: string): Promise<string[]> {
  return withAdmin((admin) => groupsNamed(admin, prefix))
}

/** Events the consumer groups named `<prefix>...` have yet to read, over all their topics. */
export function consumerLag(groupPrefix: string): Promise<number> {
  return withAdmin(async (admin) => {
    let lag = 0
    for (const groupId of await groupsNamed(admin, groupPrefix)) {
      for (const { topic, partitions } of await admin.fetchOffsets({ groupId })) {
        const ends = await admin.fetchTopicOffsets(topic)
        for (const { partition, offset } of partitions) {
          const end = Number(ends.find((e) => e.partition === partition)?.high ?? 0)
          lag += Number(offset) < 0 ? end : Math.max(0, end - Number(offset))
        }
      }
    }
    return lag
  })
}

/**
 * Waits until the test app's new consumer groups have read what the shared broker holds for
 * them (since the test file started, service-test-app.ts; or every earlier suite's events for
 * an app that sets no KAFKA_NEW_GROUPS_SINCE), so an event a test publishes next is handled at
 * once instead of queueing behind old ones.
 */
export async function waitForConsumersCaughtUp(groupPrefix: string, timeoutMs = 480_000) {
  const until = Date.now() + timeoutMs
  for (;;) {
    const lag = await consumerLag(groupPrefix)
    if (lag === 0) return
    if (Date.now() > until) throw new Error(`consumer groups ${groupPrefix}* still ${lag} behind`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}
