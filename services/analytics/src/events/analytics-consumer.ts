import type { FastifyBaseLogger } from 'fastify'
import type { Consumer, Kafka, KafkaMessage } from 'kafkajs'
import { CONSUMER_FETCH_WAIT_MS, ensureTopics, pinNewGroup } from '@marketplace/service-kit'
import type { DailyRepository, OffsetEvent } from '../daily/daily-repository'
import type { ReceivedEvent } from '../daily/daily-tally'

export interface AnalyticsConsumerOptions {
  kafka: Kafka
  topic: string
  groupId: string
  repository: DailyRepository
  logger: FastifyBaseLogger
  /** KAFKA_NEW_GROUPS_SINCE: a new group starts at the first event at or after it (epoch ms). */
  since?: number
  /** KAFKA_FETCH_WAIT_MS: the long-poll wait of an idle fetch. */
  fetchWaitMs?: number
}

/** What the consumer has done since the process started (shown on /healthz). */
export interface AnalyticsConsumerState {
  state: 'starting' | 'consuming' | 'stopped'
  counted: number
  malformed: number
  lastBatchAt: string | null
}

function parse(message: KafkaMessage): ReceivedEvent | null {
  try {
    const value: unknown = JSON.parse(message.value?.toString('utf8') ?? '')
    if (value && typeof value === 'object' && typeof (value as ReceivedEvent).name === 'string') {
      return value as ReceivedEvent
    }
  } catch {
    // Not JSON: skipped below, like an object without a name.
  }
  return null
}

/**
 * The read side of `analytics.events` (docs/analytics.md): one consumer group that counts
 * each fetched batch in memory and writes it as one `$inc` per day. Not the kit's domain
 * event consumer: these are not domain events (no envelope, no id to remember one by one);
 * the days remember partition offsets instead (daily-repository). A malformed message is
 * skipped and counted: analytics are best effort, and one must never block a partition.
 * Starting waits for the broker in the background: the broker is no part of readiness.
 */
export function createAnalyticsConsumer(options: AnalyticsConsumerOptions) {
  const logger = options.logger.child({ consumerGroup: options.groupId })
  const status: AnalyticsConsumerState = {
    state: 'starting',
    counted: 0,
    malformed: 0,
    lastBatchAt: null,
  }
  // In an object: TypeScript does not follow a `let` reassigned inside callbacks.
  const running: { consumer: Consumer | null } = { consumer: null }
  let closing = false
  let resolveJoined: () => void = () => undefined
  const joined = new Promise<void>((resolve) => {
    resolveJoined = resolve
  })

  async function startOnce(): Promise<void> {
    await ensureTopics(options.kafka, [options.topic])
    if (options.since)
      await pinNewGroup(options.kafka, options.groupId, [options.topic], options.since)
    const created = options.kafka.consumer({
      groupId: options.groupId,
      // A long poll at rest, as every service consumer (service-kit's event-consumer.ts).
      maxWaitTimeInMs: options.fetchWaitMs ?? CONSUMER_FETCH_WAIT_MS,
      sessionTimeout: 15_000,
      heartbeatInterval: 3_000,
      retry: {
        initialRetryTime: 300,
        maxRetryTime: 5000,
        retries: 10,
        restartOnFailure: async () => true,
      },
    })
    created.on(created.events.GROUP_JOIN, () => resolveJoined())
    running.consumer = created
    await created.connect()
    await created.subscribe({ topics: [options.topic], fromBeginning: true })
    await created.run({
      partitionsConsumedConcurrently: 3,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary }) => {
        const messages: OffsetEvent[] = []
        for (const message of batch.messages) {
          const event = parse(message)
          if (event) messages.push({ offset: Number(message.offset), event })
          else status.malformed += 1
        }
        // A database outage throws here: the batch is not resolved and kafkajs delivers it
        // again once the consumer restarts; the days' offsets keep that from counting twice.
        status.counted += await options.repository.applyPartitionBatch(batch.partition, messages)
        const last = batch.messages[batch.messages.length - 1]
        if (last) resolveOffset(last.offset)
        await commitOffsetsIfNecessary()
        await heartbeat()
        status.lastBatchAt = new Date().toISOString()
      },
    })
    status.state = 'consuming'
  }

  const started = (async () => {
    for (let attempt = 1; !closing; attempt += 1) {
      try {
        await startOnce()
        if (closing) await running.consumer?.disconnect()
        return
      } catch (error) {
        await running.consumer?.disconnect().catch(() => undefined)
        running.consumer = null
        const delay = Math.min(1000 * attempt, 10_000)
        logger.warn(
          { err: error, attempt, retryInMs: delay },
          'analytics consumer: kafka not reachable yet',
        )
        await new Promise((resolve) => setTimeout(resolve, delay).unref())
      }
    }
  })()

  return {
    status: (): AnalyticsConsumerState => ({ ...status }),
    /** Resolves once the group has joined (tests wait for it before they publish). */
    joined,
    async close(): Promise<void> {
      closing = true
      // A start under way finishes (bounded) so its consumer is disconnected, not left joined.
      await Promise.race([started, new Promise((resolve) => setTimeout(resolve, 30_000).unref())])
      await running.consumer?.disconnect()
      status.state = 'stopped'
    },
  }
}

export type AnalyticsConsumer = ReturnType<typeof createAnalyticsConsumer>
