import type { FastifyBaseLogger } from 'fastify'
import type { IHeaders, Kafka, KafkaMessage, Producer } from 'kafkajs'
import { Counter, type Registry } from 'prom-client'
import { isDatabaseUnavailable } from '../database-errors'
import { CONSUMER_MAX_WAIT_MS, ensureTopics } from './kafka-client'

/**
 * Where a consumer group puts the events its handler failed on after its retries, one topic
 * per group (`<group>.dead-letter`), so a re-drive goes back to that group alone. Created on
 * the first dead letter: most groups never have one, and live groups are one per process.
 */
export const deadLetterTopicOf = (groupId: string) => `${groupId}.dead-letter`

/** Set on a re-driven event: only this group handles it, every other group skips it. */
export const REDRIVE_GROUP_HEADER = 'redrive-group'

/** How a failing handler is retried before its event is dead-lettered. */
export interface HandlerRetry {
  attempts: number
  initialDelayMs: number
  maxDelayMs: number
}

/** About 4 s in all: short of the group's 15 s session, long enough for a conflict to pass. */
export const DEFAULT_HANDLER_RETRY: HandlerRetry = {
  attempts: 5,
  initialDelayMs: 250,
  maxDelayMs: 2_000,
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // nodemailer's names for a mail server that cannot be reached
  'ECONNECTION',
  'ESOCKET',
])

/**
 * A failure of something the handler depends on (the database, the broker, the mail server
 * away) rather than of the handler or its event: the event is retried for as long as the
 * outage lasts, as before, and never dead-lettered (an outage would otherwise fill the
 * dead-letter topics with events nothing is wrong with).
 */
export function isOutage(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true
  const { code, name, retriable } = (error ?? {}) as {
    code?: unknown
    name?: unknown
    retriable?: unknown
  }
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true
  return typeof name === 'string' && name.startsWith('KafkaJS') && retriable === true
}

export function deadLetterCounter(registry: Registry): Counter<'consumer_group' | 'type'> {
  const existing = registry.getSingleMetric('events_dead_lettered_total')
  if (existing) return existing as Counter<'consumer_group' | 'type'>
  return new Counter({
    name: 'events_dead_lettered_total',
    help: 'Events a handler still failed on after its retries, sent to <group>.dead-letter',
    labelNames: ['consumer_group', 'type'],
    registers: [registry],
  })
}

/** Publishes the event as it came, with the error and its origin in headers. */
export async function publishDeadLetter(options: {
  kafka: Kafka
  producer: Producer
  groupId: string
  topic: string
  partition: number
  message: KafkaMessage
  event: { id: string; type: string }
  error: unknown
  attempts: number
}): Promise<void> {
  const topic = deadLetterTopicOf(options.groupId)
  await ensureTopics(options.kafka, [topic])
  const error = options.error instanceof Error ? options.error : new Error(String(options.error))
  await options.producer.send({
    topic,
    messages: [
      {
        key: options.message.key,
        value: options.message.value,
        headers: {
          error: error.message.slice(0, 2_000),
          'error-name': error.name,
          attempts: String(options.attempts),
          'event-id': options.event.id,
          'event-type': options.event.type,
          'original-topic': options.topic,
          'original-partition': String(options.partition),
          'original-offset': options.message.offset,
          'consumer-group': options.groupId,
          'dead-lettered-at': new Date().toISOString(),
        },
      },
    ],
  })
}

const headerText = (headers: IHeaders | undefined, name: string) => {
  const value = headers?.[name]
  return value === undefined ? undefined : String(Array.isArray(value) ? value[0] : value)
}

/**
 * Sends every dead letter of a group not re-driven yet back to its original topic, keyed as
 * before (same partition, so after any later event of its aggregate) and marked for that
 * group alone, then returns how many it sent. Its progress is the group
 * `<group>.dead-letter.redrive`'s committed offsets: running it again sends only what came
 * since. Fix the cause first: a letter that fails again comes back to the dead-letter topic.
 */
export async function redriveDeadLetters(options: {
  kafka: Kafka
  groupId: string
  logger?: Pick<FastifyBaseLogger, 'info'>
}): Promise<number> {
  const { kafka, groupId } = options
  const topic = deadLetterTopicOf(groupId)
  const redriveGroup = `${topic}.redrive`
  const admin = kafka.admin()
  await admin.connect()
  const remaining = new Map<number, bigint>()
  try {
    if (!(await admin.listTopics()).includes(topic)) return 0
    const ends = await admin.fetchTopicOffsets(topic)
    const [committed] = await admin.fetchOffsets({ groupId: redriveGroup, topics: [topic] })
    for (const end of ends) {
      const done = committed?.partitions.find((p) => p.partition === end.partition)?.offset
      const from = done === undefined || Number(done) < 0 ? BigInt(end.low) : BigInt(done)
      if (from < BigInt(end.high)) remaining.set(end.partition, BigInt(end.high))
    }
  } finally {
    await admin.disconnect()
  }
  if (remaining.size === 0) return 0

  const producer = kafka.producer({ allowAutoTopicCreation: false })
  const consumer = kafka.consumer({ groupId: redriveGroup, maxWaitTimeInMs: CONSUMER_MAX_WAIT_MS })
  let sent = 0
  await producer.connect()
  try {
    await consumer.connect()
    await consumer.subscribe({ topics: [topic], fromBeginning: true })
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            const end = remaining.get(partition)
            if (end === undefined || BigInt(message.offset) >= end) return
            const originalTopic = headerText(message.headers, 'original-topic')
            if (originalTopic) {
              await producer.send({
                topic: originalTopic,
                messages: [
                  {
                    key: message.key,
                    value: message.value,
                    headers: { [REDRIVE_GROUP_HEADER]: groupId },
                  },
                ],
              })
              sent += 1
              options.logger?.info(
                { groupId, eventId: headerText(message.headers, 'event-id'), originalTopic },
                're-drove a dead letter',
              )
            }
            const next = BigInt(message.offset) + 1n
            await consumer.commitOffsets([{ topic, partition, offset: String(next) }])
            if (next >= end) remaining.delete(partition)
            if (remaining.size === 0) resolve()
          },
        })
        .catch(reject)
    })
  } finally {
    await consumer.disconnect()
    await producer.disconnect()
  }
  return sent
}
