import type { FastifyBaseLogger } from 'fastify'
import type { Admin, Kafka } from 'kafkajs'
import { Gauge, type Registry } from 'prom-client'

/** Scrapes closer together than this reuse the last reading (every instance is scraped). */
const READ_EVERY_MS = 5_000
/** A broker that does not answer by then leaves the last reading in place for this scrape. */
const READ_TIMEOUT_MS = 3_000

export interface ConsumerLagOptions {
  kafka: Kafka
  metrics: Registry
  logger: FastifyBaseLogger
  /** The groups this instance runs now, each with the topics it reads. */
  groups(): Array<{ groupId: string; topics: string[] }>
}

/**
 * `kafka_consumer_lag{consumer_group, topic, partition}`: how many messages of each partition
 * a group of this instance has not committed yet (the partition's end offset minus the
 * group's committed offset; from the partition's start when the group committed nothing),
 * read from the broker when /metrics is scraped, at most every 5 s. Kafka's own view: it
 * counts what a stalled or dead consumer left too, which the consumer itself cannot report.
 * A shared group reports the same figures from each of its instances (alert on the max).
 */
export function watchConsumerLag(options: ConsumerLagOptions): { stop(): Promise<void> } {
  let admin: Admin | null = null
  let lastRead = 0
  let reading: Promise<void> | null = null
  const gauge = new Gauge({
    name: 'kafka_consumer_lag',
    help: "Messages on a partition after the consumer group's committed offset",
    labelNames: ['consumer_group', 'topic', 'partition'],
    registers: [options.metrics],
    async collect() {
      if (Date.now() - lastRead < READ_EVERY_MS) return
      reading ??= read().finally(() => {
        reading = null
      })
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        reading,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, READ_TIMEOUT_MS)
        }),
      ]).finally(() => clearTimeout(timer))
    },
  })

  async function read(): Promise<void> {
    try {
      if (!admin) {
        admin = options.kafka.admin({ retry: { retries: 0 } })
        await admin.connect()
      }
      const groups = options.groups()
      const topics = [...new Set(groups.flatMap((group) => group.topics))]
      const ends = new Map<string, Map<number, { high: bigint; low: bigint }>>()
      for (const topic of topics) {
        const partitions = await admin.fetchTopicOffsets(topic)
        ends.set(
          topic,
          new Map(
            partitions.map((p) => [p.partition, { high: BigInt(p.high), low: BigInt(p.low) }]),
          ),
        )
      }
      const values: Array<{ labels: Record<string, string>; lag: number }> = []
      for (const group of groups) {
        const committed = await admin.fetchOffsets({ groupId: group.groupId, topics: group.topics })
        for (const { topic, partitions } of committed) {
          for (const { partition, offset } of partitions) {
            const end = ends.get(topic)?.get(partition)
            if (!end) continue
            const from = BigInt(offset) >= 0n ? BigInt(offset) : end.low
            const lag = end.high > from ? Number(end.high - from) : 0
            values.push({
              labels: { consumer_group: group.groupId, topic, partition: String(partition) },
              lag,
            })
          }
        }
      }
      // Replaced as a whole: a group that left (deleted on close) leaves no stale series.
      gauge.reset()
      for (const { labels, lag } of values) gauge.set(labels, lag)
      lastRead = Date.now()
    } catch (error) {
      options.logger.debug({ err: error }, 'consumer lag not read; the last reading stays')
      await admin?.disconnect().catch(() => undefined)
      admin = null
    }
  }

  return {
    async stop() {
      await reading
      await admin?.disconnect().catch(() => undefined)
      admin = null
    },
  }
}
