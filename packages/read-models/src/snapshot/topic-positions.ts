import type { Kafka } from 'kafkajs'
import { Events } from '@marketplace/contracts/events'
import type { TopicPosition } from '@marketplace/service-kit'

/** The topics a consumer with these handlers follows (as the kit's event consumer picks them). */
export function topicsOf(handlers: object): string[] {
  const definitions = Object.values(Events)
  return [
    ...new Set(
      Object.keys(handlers).map((type) => {
        const definition = definitions.find((candidate) => candidate.type === type)
        if (!definition) throw new Error(`Unknown event type "${type}"`)
        return definition.topic
      }),
    ),
  ]
}

/** Per partition of each topic, the offset the next message published will get. */
export async function endPositions(
  kafka: Kafka,
  topics: readonly string[],
): Promise<TopicPosition[]> {
  const admin = kafka.admin()
  await admin.connect()
  try {
    const positions: TopicPosition[] = []
    for (const topic of topics) {
      for (const { partition, high } of await admin.fetchTopicOffsets(topic)) {
        positions.push({ topic, partition, offset: high })
      }
    }
    return positions
  } finally {
    await admin.disconnect()
  }
}

/** Whether the topics still hold every message from `positions` on (none deleted by retention). */
export async function startsWithin(kafka: Kafka, positions: TopicPosition[]): Promise<boolean> {
  const admin = kafka.admin()
  await admin.connect()
  try {
    for (const topic of new Set(positions.map((position) => position.topic))) {
      for (const { partition, low } of await admin.fetchTopicOffsets(topic)) {
        const position = positions.find((p) => p.topic === topic && p.partition === partition)
        if (position && BigInt(position.offset) < BigInt(low)) return false
      }
    }
    return true
  } finally {
    await admin.disconnect()
  }
}

/** Whether `applied` (absent: nothing applied yet) is still before `target`. */
export function isBefore(applied: TopicPosition | undefined, target: TopicPosition): boolean {
  if (!applied) return BigInt(target.offset) > 0n
  return BigInt(applied.offset) < BigInt(target.offset)
}
