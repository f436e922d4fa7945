import type { FastifyBaseLogger } from 'fastify'
import type { Consumer, EachMessagePayload, Kafka, KafkaMessage, Producer } from 'kafkajs'
import type { Db } from 'mongodb'
import type { Registry } from 'prom-client'
import { Value } from '@sinclair/typebox/value'
import {
  AnyEventEnvelopeSchema,
  Events,
  type DomainEvent,
  type EventName,
} from '@marketplace/contracts/events'
import {
  DEFAULT_HANDLER_RETRY,
  REDRIVE_GROUP_HEADER,
  deadLetterCounter,
  isOutage,
  publishDeadLetter,
  type HandlerRetry,
} from './dead-letters'
import { traceMessageHandling } from '../tracing/event-trace'
import { CONSUMER_FETCH_WAIT_MS, DEAD_LETTER_TOPIC } from './kafka-client'
import { dataChecker } from './new-event'
import { pinNewGroup, type TopicPosition } from './pin-new-group'
import { createProcessedEvents } from './processed-events'

export type EventHandler<N extends EventName> = (event: DomainEvent<N>) => Promise<void>
export type EventHandlers = { [N in EventName]?: EventHandler<N> }

export interface EventConsumerOptions {
  kafka: Kafka
  /** Dead letters are published with this producer (the service's shared one). */
  producer: Producer
  groupId: string
  handlers: EventHandlers
  logger: FastifyBaseLogger
  /**
   * Where processed event ids are remembered. Omit only for consumers whose every effect is
   * naturally idempotent and per-instance (for example the Socket.IO fan-out).
   */
  db?: Db
  /** A new group starts at the beginning of each topic, so no event before its birth is missed. */
  fromBeginning?: boolean
  /**
   * With fromBeginning, an instant (epoch ms; 0 or absent: the beginning): a new group starts
   * at the first event published at or after it (KAFKA_NEW_GROUPS_SINCE, service-kit config).
   */
  since?: number
  /**
   * How long an idle fetch waits on the broker (default CONSUMER_FETCH_WAIT_MS). A new event
   * ends the wait at once; what waits on it is leaving the group and seeing a rebalance.
   */
  fetchWaitMs?: number
  /** How long a consumer may show no sign of life before it is restarted (tests shorten it). */
  stallMs?: number
  /**
   * Partitions handled at once (default 3, a topic's partition count). Order holds within a
   * partition, which is all the events promise (one aggregate, one partition); across
   * partitions handlers already run concurrently whenever a service has several instances.
   */
  partitionsConsumedConcurrently?: number
  /** A failing handler's retries before its event goes to `<group>.dead-letter`. */
  retry?: HandlerRetry
  /** Where `events_dead_lettered_total` is counted (the service's /metrics). */
  metrics?: Registry
  /**
   * A new group's exact start, per partition, instead of the end or the beginning: a read
   * model loaded from a snapshot follows on from the position the snapshot covers. Awaited
   * before the group joins; null falls back to `fromBeginning`.
   */
  startAt?: () => Promise<TopicPosition[] | null>
  /**
   * Called once a message is done with (handled, skipped or dead-lettered), with the offset
   * that follows it: everything before it in that partition is applied.
   */
  onHandled?: (position: TopicPosition) => void
}

export type { TopicPosition } from './pin-new-group'

const knownTypes = new Set<string>(Object.values(Events).map((definition) => definition.type))

class MalformedEvent extends Error {}

function parse(message: KafkaMessage): DomainEvent {
  let body: unknown
  try {
    body = JSON.parse(message.value?.toString('utf8') ?? '')
  } catch {
    throw new MalformedEvent('value is not JSON')
  }
  if (!Value.Check(AnyEventEnvelopeSchema, body)) {
    const first = Value.Errors(AnyEventEnvelopeSchema, body).First()
    throw new MalformedEvent(`not an event envelope: ${first?.path || '(root)'} ${first?.message}`)
  }
  if (knownTypes.has(body.type)) {
    const checker = dataChecker(body.type as EventName)
    if (!checker.Check(body.data)) {
      const first = checker.Errors(body.data).First()
      throw new MalformedEvent(`data of ${body.type} invalid at ${first?.path}: ${first?.message}`)
    }
  }
  return body as DomainEvent
}

/**
 * Subscribes a consumer group to the topics its handlers need and runs each event through
 * its handler at least once and, thanks to the processed-events ledger, with one effect.
 * A malformed message goes to the dead-letter topic with the reason, and the partition moves
 * on. A handler that throws because a dependency is away (the database, the broker) is
 * retried for as long as that lasts (the offset is not committed): an outage must not drop
 * events. Any other failure is retried a few times with backoff, then the event goes to
 * `<group>.dead-letter` with the error, a metric and a log line, and the partition moves on
 * (one bad event used to block its partition for good); `redriveDeadLetters`
 * sends it back once the cause is fixed.
 */
export async function startEventConsumer(options: EventConsumerOptions): Promise<Consumer> {
  const types = Object.keys(options.handlers) as EventName[]
  const topics = [...new Set(types.map((type) => Events[keyOf(type)].topic))]
  const ledger = options.db ? createProcessedEvents(options.db, options.groupId) : null
  const logger = options.logger.child({ consumerGroup: options.groupId })
  const retry = options.retry ?? DEFAULT_HANDLER_RETRY
  const deadLettered = options.metrics ? deadLetterCounter(options.metrics) : null

  const consumer = options.kafka.consumer({
    groupId: options.groupId,
    maxWaitTimeInMs: options.fetchWaitMs ?? CONSUMER_FETCH_WAIT_MS,
    // kafkajs sends a heartbeat only between fetches, so at rest one goes with each long
    // poll; while busy, every 3 s (the Java client's default). 15 s without one and the broker
    // gives the partitions to the other instances (a crashed one's, for example).
    sessionTimeout: 15_000,
    heartbeatInterval: 3_000,
    retry: {
      initialRetryTime: 300,
      maxRetryTime: 5000,
      retries: 10,
      restartOnFailure: async () => true,
    },
  })
  // Resolved on the first join: a caller awaiting this consumer knows it receives what is
  // published from now on (a new group that starts at the end would miss earlier events).
  const joined = new Promise<void>((resolve) => {
    consumer.on(consumer.events.GROUP_JOIN, () => resolve())
  })
  const fromBeginning = options.fromBeginning ?? true
  const startAt = options.startAt ? await options.startAt() : null
  if (startAt) await pinNewGroup(options.kafka, options.groupId, topics, startAt)
  else if (!fromBeginning) await pinNewGroup(options.kafka, options.groupId, topics, 'end')
  else if (options.since) await pinNewGroup(options.kafka, options.groupId, topics, options.since)
  await consumer.connect()
  await consumer.subscribe({ topics, fromBeginning })
  // Every message is a sign of life for the stall watch below: one batch of slow handlers
  // (mail over SMTP) may take minutes between its start and its end.
  const liveness = { lastSign: Date.now() }
  const runConfig: Parameters<Consumer['run']>[0] = {
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 3,
    eachMessage: (payload) =>
      traceMessageHandling(
        payload.message,
        { topic: payload.topic, partition: payload.partition, groupId: options.groupId },
        () => handleMessage(payload),
      ),
  }
  async function handleMessage({
    topic,
    partition,
    message,
    heartbeat,
  }: EachMessagePayload): Promise<void> {
    liveness.lastSign = Date.now()
    const redriveFor = message.headers?.[REDRIVE_GROUP_HEADER]
    if (redriveFor !== undefined && String(redriveFor) !== options.groupId) return
    let event: DomainEvent
    try {
      event = parse(message)
    } catch (error) {
      if (!(error instanceof MalformedEvent)) throw error
      logger.warn(
        { topic, partition, offset: message.offset, reason: error.message },
        'dead-lettering a malformed event',
      )
      await options.producer.send({
        topic: DEAD_LETTER_TOPIC,
        messages: [
          {
            key: message.key,
            value: message.value,
            headers: {
              reason: error.message,
              'original-topic': topic,
              'original-partition': String(partition),
              'original-offset': message.offset,
              'consumer-group': options.groupId,
            },
          },
        ],
      })
      return
    }
    const handler = options.handlers[event.type as EventName] as EventHandler<EventName> | undefined
    if (!handler) return
    if (ledger && (await ledger.has(event.id))) {
      logger.debug({ eventId: event.id, type: event.type }, 'skipping an event already processed')
      return
    }
    for (let attempt = 1; ; attempt += 1) {
      try {
        await handler(event)
        break
      } catch (error) {
        if (isOutage(error)) throw error
        if (attempt >= retry.attempts) {
          logger.error(
            {
              err: error,
              eventId: event.id,
              type: event.type,
              topic,
              partition,
              attempts: attempt,
            },
            'dead-lettering an event its handler keeps failing on',
          )
          await publishDeadLetter({
            kafka: options.kafka,
            producer: options.producer,
            groupId: options.groupId,
            topic,
            partition,
            message,
            event,
            error,
            attempts: attempt,
          })
          deadLettered?.inc({ consumer_group: options.groupId, type: event.type })
          return
        }
        const delayMs = Math.min(retry.initialDelayMs * 2 ** (attempt - 1), retry.maxDelayMs)
        logger.warn(
          { err: error, eventId: event.id, type: event.type, attempt, retryInMs: delayMs },
          'event handler failed; retrying',
        )
        await new Promise((resolve) => setTimeout(resolve, delayMs))
        await heartbeat()
        liveness.lastSign = Date.now()
      }
    }
    if (ledger) await ledger.remember(event.id, event.type)
  }
  if (options.onHandled) {
    const { onHandled } = options
    const handle = runConfig.eachMessage!
    runConfig.eachMessage = async (payload) => {
      await handle(payload)
      const next = (BigInt(payload.message.offset) + 1n).toString()
      onHandled({ topic: payload.topic, partition: payload.partition, offset: next })
    }
  }
  await consumer.run(runConfig)
  await joined
  watchForStall(consumer, {
    topics,
    fromBeginning,
    runConfig,
    logger,
    liveness,
    stallMs: options.stallMs,
  })
  return consumer
}

/** A consumer with no fetch, batch or join for this long is taken for hung and restarted. */
export const CONSUMER_STALL_MS = 60_000

/**
 * KafkaJS can leave a consumer hanging after its broker went away and came back: no crash,
 * no restart, no fetch (kafkajs issues #267, #659). A safety net: a healthy consumer
 * fetches at least every `maxWaitTimeInMs` (at most 10 s) or is busy with a batch, so a minute of
 * silence between batches means it is stuck: it is disconnected and started again, and
 * resumes at its committed offsets.
 * A failed restart (the broker still down) is tried again at the next check.
 */
export function watchForStall(
  consumer: Consumer,
  context: {
    topics: string[]
    fromBeginning: boolean
    runConfig: Parameters<Consumer['run']>[0]
    logger: FastifyBaseLogger
    /** Shared with the message handler, which marks each message as a sign of life. */
    liveness?: { lastSign: number }
    stallMs?: number
  },
) {
  const stallMs = context.stallMs ?? CONSUMER_STALL_MS
  const liveness = context.liveness ?? { lastSign: Date.now() }
  let restarting = false
  /** The restart under way, if any: closing waits for it, so it cannot outlive the close. */
  let restart: Promise<void> | null = null
  let closed = false
  // A batch in progress is never interrupted: a slow handler is not a hung fetch.
  // Batches running now: partitions are consumed concurrently, so several may overlap.
  let batchesRunning = 0
  const alive = () => {
    liveness.lastSign = Date.now()
  }
  const { FETCH_START, FETCH, START_BATCH_PROCESS, END_BATCH_PROCESS, GROUP_JOIN, REBALANCING } =
    consumer.events
  for (const event of [FETCH_START, FETCH, GROUP_JOIN, REBALANCING]) consumer.on(event, alive)
  consumer.on(START_BATCH_PROCESS, () => {
    batchesRunning += 1
    alive()
  })
  consumer.on(END_BATCH_PROCESS, () => {
    batchesRunning = Math.max(0, batchesRunning - 1)
    alive()
  })
  // A crash or a new join ends whatever batch was running without its END event.
  for (const event of [consumer.events.CRASH, GROUP_JOIN])
    consumer.on(event, () => {
      batchesRunning = 0
    })

  const disconnect = consumer.disconnect.bind(consumer)
  const check = setInterval(
    () => {
      if (closed || restarting || batchesRunning > 0 || Date.now() - liveness.lastSign < stallMs)
        return
      restarting = true
      context.logger.warn(
        { silentMs: Date.now() - liveness.lastSign },
        'restarting a stalled consumer',
      )
      restart = (async () => {
        try {
          await disconnect().catch(() => undefined)
          if (closed) return
          await consumer.connect()
          await consumer.subscribe({ topics: context.topics, fromBeginning: context.fromBeginning })
          await consumer.run(context.runConfig)
          alive()
        } catch (error) {
          context.logger.warn({ err: error }, 'a stalled consumer could not restart yet')
        } finally {
          restarting = false
          restart = null
        }
      })()
    },
    Math.min(10_000, stallMs / 2),
  )
  check.unref()
  // Closing the service ends the watch before the consumer goes.
  consumer.disconnect = async () => {
    closed = true
    clearInterval(check)
    if (restart) {
      await Promise.race([restart, new Promise((resolve) => setTimeout(resolve, 30_000).unref())])
    }
    await disconnect()
  }
}

function keyOf(type: EventName): keyof typeof Events {
  const key = (Object.keys(Events) as (keyof typeof Events)[]).find((k) => Events[k].type === type)
  if (!key) throw new Error(`Unknown event type "${type}"`)
  return key
}
