import { Kafka, logLevel, type ITopicConfig, type LogEntry, type SASLOptions } from 'kafkajs'
import type { FastifyBaseLogger } from 'fastify'
import type { KafkaAuthConfig } from '../config'

/** kafkajs logs through the service's pino logger, so one log stream tells the whole story. */
function pinoLogCreator(logger: FastifyBaseLogger) {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...extra } = log
      if (level === logLevel.ERROR) logger.error(extra, `kafka: ${message}`)
      else if (level === logLevel.WARN) logger.warn(extra, `kafka: ${message}`)
      else logger.debug(extra, `kafka: ${message}`)
    }
}

/**
 * The SASL settings of a service's principal (KAFKA_SASL_*), or undefined without them. Half a
 * setting is a mistake that would only show as a refused connection later: refused here.
 */
export function saslOf(auth: Partial<KafkaAuthConfig>): SASLOptions | undefined {
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: username } = auth
  const password = auth.KAFKA_SASL_PASSWORD
  if (!mechanism && !username && !password) return undefined
  if (!mechanism || !username || !password) {
    throw new Error(
      'Invalid configuration:\n  KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD go together',
    )
  }
  return { mechanism, username, password }
}

export function createKafka(options: {
  brokers: string
  clientId: string
  logger: FastifyBaseLogger
  /** KAFKA_SASL_* and KAFKA_SSL: the service's own principal (docs/events.md). */
  auth?: Partial<KafkaAuthConfig>
}): Kafka {
  const sasl = saslOf(options.auth ?? {})
  return new Kafka({
    ...(sasl ? { sasl } : {}),
    ...(options.auth?.KAFKA_SSL ? { ssl: true } : {}),
    clientId: options.clientId,
    brokers: options.brokers
      .split(',')
      .map((broker) => broker.trim())
      .filter(Boolean),
    logLevel: logLevel.WARN,
    logCreator: pinoLogCreator(options.logger),
    connectionTimeout: 3000,
    // A broker restart takes a few seconds; retry long enough to ride it out.
    retry: { initialRetryTime: 300, maxRetryTime: 5000, retries: 8 },
  })
}

/**
 * Creates the topics a service produces to or consumes from (LOCAL-INFRA.md: never rely on
 * auto-creation, whose first send fails with LEADER_NOT_AVAILABLE). Idempotent.
 */
export async function ensureTopics(
  kafka: Kafka,
  topics: string[],
  numPartitions = 3,
): Promise<void> {
  const admin = kafka.admin()
  await admin.connect()
  try {
    const existing = new Set(await admin.listTopics())
    const missing: ITopicConfig[] = [...new Set(topics)]
      .filter((topic) => !existing.has(topic))
      .map((topic) => ({ topic, numPartitions }))
    if (missing.length > 0) await admin.createTopics({ topics: missing, waitForLeaders: true })
  } finally {
    await admin.disconnect()
  }
}

/** Topic for events no consumer could read (bad JSON, unknown shape), with the reason in a header. */
export const DEAD_LETTER_TOPIC = 'dead-letters'

/**
 * How long a short-lived consumer's fetch (a test's probe, the dead-letter redrive) waits on
 * the broker for new events. A new event ends the wait at once, so this is not a delay; it
 * bounds what waits on an idle fetch: leaving the group, which such a consumer soon does.
 */
export const CONSUMER_MAX_WAIT_MS = 1000

/**
 * The long-poll wait of a service's consumers (KAFKA_FETCH_WAIT_MS's default). At rest each
 * consumer asks the broker once per wait, and a service runs up to six consumers: at 1 s that
 * was about 0.1 % of a core per consumer in fetches and heartbeats, at 5 s a fifth of it. A new
 * event still ends the wait at once. What waits longer: a shutdown's group leave and an idle
 * member's notice of a rebalance (a new instance joining), each up to this long. Short-lived
 * consumers (tests, the dead-letter redrive) keep CONSUMER_MAX_WAIT_MS.
 */
export const CONSUMER_FETCH_WAIT_MS = 5000
