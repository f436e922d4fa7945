import { Kafka, logLevel, type ITopicConfig, type LogEntry } from 'kafkajs'
import type { FastifyBaseLogger } from 'fastify'

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

export function createKafka(options: {
  brokers: string
  clientId: string
  logger: FastifyBaseLogger
}): Kafka {
  return new Kafka({
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
      .map((topic) => ({ topic, numPartitions, replicationFactor: 1 }))
    if (missing.length > 0) await admin.createTopics({ topics: missing, waitForLeaders: true })
  } finally {
    await admin.disconnect()
  }
}

/** Topic for events no consumer could read (bad JSON, unknown shape), with the reason in a header. */
export const DEAD_LETTER_TOPIC = 'dead-letters'
