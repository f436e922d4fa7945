import type { FastifyBaseLogger } from 'fastify'
import type { Producer } from 'kafkajs'
import type { Registry } from 'prom-client'
import { Counter } from 'prom-client'
import { ANALYTICS_TOPIC, type AnalyticsEvent } from '@marketplace/contracts/marketplace'
import { createKafka, ensureTopics, type KafkaAuthConfig } from '@marketplace/service-kit'

/** What the gateway adds to each event: when it arrived. Nothing that names the person. */
export type ReceivedAnalyticsEvent = AnalyticsEvent & { receivedAt: string }

export interface AnalyticsPublisherOptions {
  brokers: string
  /** The gateway's Kafka principal (KAFKA_SASL_*), when the broker asks for one. */
  auth?: Partial<KafkaAuthConfig>
  logger: FastifyBaseLogger
  metrics: Registry
  /** Events held while the broker is away; beyond it new ones are dropped and counted. */
  maxQueued?: number
  flushIntervalMs?: number
}

/**
 * Sends analytics to Kafka in the background. Best effort on purpose: analytics must never
 * slow a page or take the gateway down, so a request only queues its events and answers, a
 * timer sends what is queued in one batch, and with the broker away the queue is bounded and
 * the overflow dropped (counted in `analytics_events_total{outcome="dropped"}`). This is not
 * the domain events' outbox: losing a page view in an outage is acceptable, blocking is not.
 * The broker is not part of the gateway's readiness for the same reason.
 */
export class AnalyticsPublisher {
  private readonly producer: Producer
  private readonly queue: ReceivedAnalyticsEvent[] = []
  private readonly counted: Counter<'outcome'>
  private readonly maxQueued: number
  private timer: NodeJS.Timeout | null = null
  private connecting: Promise<void> | null = null
  private connected = false
  private sending: Promise<void> | null = null
  private closed = false

  constructor(private readonly options: AnalyticsPublisherOptions) {
    const kafka = createKafka({
      brokers: options.brokers,
      clientId: 'gateway-analytics',
      logger: options.logger,
      auth: options.auth,
    })
    this.producer = kafka.producer({ allowAutoTopicCreation: false })
    this.maxQueued = options.maxQueued ?? 10_000
    this.counted = new Counter({
      name: 'analytics_events_total',
      help: 'Analytics events by outcome: published, dropped (queue full) or failed (broker error)',
      labelNames: ['outcome'],
      registers: [options.metrics],
    })
    this.connecting = this.connect(kafka)
  }

  /** Queues the events; answers how many were taken (the rest did not fit). */
  enqueue(events: ReceivedAnalyticsEvent[]): number {
    const room = Math.max(0, this.maxQueued - this.queue.length)
    const taken = events.slice(0, room)
    this.queue.push(...taken)
    if (taken.length < events.length) {
      this.counted.inc({ outcome: 'dropped' }, events.length - taken.length)
    }
    this.scheduleFlush()
    return taken.length
  }

  /** Sends what is queued now and stops; used on shutdown and by tests. */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.connecting?.catch(() => undefined)
    await this.sending
    if (this.connected) await this.flush()
    await this.producer.disconnect()
  }

  private async connect(kafka: ReturnType<typeof createKafka>): Promise<void> {
    // The broker may be starting too: keep trying, queued events wait (bounded) meanwhile.
    for (let attempt = 1; !this.closed; attempt += 1) {
      try {
        await ensureTopics(kafka, [ANALYTICS_TOPIC])
        await this.producer.connect()
        this.connected = true
        this.scheduleFlush()
        return
      } catch (error) {
        const delay = Math.min(1000 * attempt, 10_000)
        this.options.logger.warn(
          { err: error, retryInMs: delay },
          'analytics: kafka not reachable yet',
        )
        await new Promise((resolve) => setTimeout(resolve, delay).unref())
      }
    }
  }

  private scheduleFlush(): void {
    if (this.timer || this.closed || !this.connected || this.queue.length === 0) return
    this.timer = setTimeout(() => {
      this.timer = null
      this.sending = this.flush().finally(() => {
        this.sending = null
        this.scheduleFlush()
      })
    }, this.options.flushIntervalMs ?? 250)
    this.timer.unref()
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, 500)
    if (batch.length === 0) return
    try {
      await this.producer.send({
        topic: ANALYTICS_TOPIC,
        acks: 1,
        // Keyed by the tab's session id, so one visit's events stay in order.
        messages: batch.map((event) => ({ key: event.sessionId, value: JSON.stringify(event) })),
      })
      this.counted.inc({ outcome: 'published' }, batch.length)
    } catch (error) {
      // kafkajs already retried for seconds; the events are given up rather than piled up.
      this.counted.inc({ outcome: 'failed' }, batch.length)
      this.options.logger.warn({ err: error, events: batch.length }, 'analytics: batch not sent')
    }
  }
}
