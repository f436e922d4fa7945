import type { FastifyBaseLogger } from 'fastify'
import type { Kafka } from 'kafkajs'
import { Gauge, type Registry } from 'prom-client'

/** How often the broker is asked whether it answers. */
export const BROKER_CHECK_MS = 10_000

/** A broker that has not answered by then counts as unreachable for this check. */
const CHECK_TIMEOUT_MS = 5_000

export type BrokerState = 'unknown' | 'reachable' | 'unreachable'

export interface BrokerWatch {
  /** The answer of the last check, for /healthz (no I/O when read). */
  state(): BrokerState
  /** When that answer came, ISO, or null before the first. */
  checkedAt(): string | null
  stop(): void
}

/**
 * Asks the broker every few seconds whether it answers, and keeps the answer for /healthz
 * and /metrics (`kafka_broker_reachable`). Readiness no longer asks Kafka (a
 * broker outage took every pod out of its Service although writes wait in the outbox), so
 * this is where an operator sees the broker's state. One attempt per check, no retries:
 * the next check is the retry, and a check never outlives its period.
 */
export function watchBroker(options: {
  kafka: Kafka
  metrics: Registry
  logger: FastifyBaseLogger
  periodMs?: number
}): BrokerWatch {
  const reachable = new Gauge({
    name: 'kafka_broker_reachable',
    help: '1 when the last check reached the Kafka broker, 0 when it did not',
    registers: [options.metrics],
  })
  let state: BrokerState = 'unknown'
  let checkedAt: string | null = null
  let stopped = false
  let timer: NodeJS.Timeout | null = null

  async function check(): Promise<void> {
    const admin = options.kafka.admin({ retry: { retries: 0 } })
    let timer: NodeJS.Timeout | undefined
    let next: BrokerState
    try {
      await Promise.race([
        (async () => {
          await admin.connect()
          await admin.describeCluster()
        })(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer')), CHECK_TIMEOUT_MS)
        }),
      ])
      next = 'reachable'
    } catch {
      next = 'unreachable'
    } finally {
      clearTimeout(timer)
      await admin.disconnect().catch(() => undefined)
    }
    if (next !== state && state !== 'unknown') {
      if (next === 'unreachable')
        options.logger.warn('kafka broker unreachable: writes wait in the outbox')
      else options.logger.info('kafka broker reachable again')
    }
    state = next
    checkedAt = new Date().toISOString()
    reachable.set(state === 'reachable' ? 1 : 0)
  }

  const loop = async () => {
    await check()
    if (!stopped) timer = setTimeout(() => void loop(), options.periodMs ?? BROKER_CHECK_MS)
    timer?.unref()
  }
  void loop()

  return {
    state: () => state,
    checkedAt: () => checkedAt,
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
    },
  }
}
