import type { Db } from 'mongodb'
import { Gauge, type Registry } from 'prom-client'
import type { OutboxFields } from './outbox-fields'

/** Scrapes closer together than this reuse the last reading. */
const READ_EVERY_MS = 5_000
/**
 * Pending documents read per collection for the oldest event's age. The relay clears
 * documents within milliseconds when the broker answers, so this many pending means an
 * outage: the age is then that of the oldest among them (a lower bound), still far above
 * any alert threshold.
 */
const MAX_DOCUMENTS_READ = 10_000

/**
 * `outbox_pending_documents{collection}` and `outbox_oldest_pending_age_seconds{collection}`:
 * the events that wait in each outbox collection to be published, read from the database
 * (by the pending flag's index) when /metrics is scraped, at most every 5 s. Every instance
 * reads the same collections and reports the same figures (alert on the max).
 */
export function watchOutboxBacklog(options: {
  db: Db
  collections: string[]
  metrics: Registry
}): void {
  let lastRead = 0
  let reading: Promise<void> | null = null
  const pending = new Gauge({
    name: 'outbox_pending_documents',
    help: 'Documents whose events wait in the outbox to be published',
    labelNames: ['collection'],
    registers: [options.metrics],
    async collect() {
      if (Date.now() - lastRead < READ_EVERY_MS) return
      reading ??= read().finally(() => {
        reading = null
      })
      await reading
    },
  })
  const oldestAge = new Gauge({
    name: 'outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest event still waiting in the outbox, 0 when none waits',
    labelNames: ['collection'],
    registers: [options.metrics],
    async collect() {
      // Read together with the pending count (its collect runs first or shares the read).
      if (Date.now() - lastRead < READ_EVERY_MS) return
      reading ??= read().finally(() => {
        reading = null
      })
      await reading
    },
  })

  async function read(): Promise<void> {
    try {
      await readAll()
    } catch {
      // The database away: /metrics still answers, with the last reading (its outage shows
      // on /readyz and in the requests' 503s).
    }
  }

  async function readAll(): Promise<void> {
    const now = Date.now()
    for (const name of options.collections) {
      const docs = await options.db
        .collection<OutboxFields>(name)
        .find({ outboxPending: true }, { projection: { outbox: 1 } })
        .limit(MAX_DOCUMENTS_READ)
        .toArray()
      const count =
        docs.length < MAX_DOCUMENTS_READ
          ? docs.length
          : await options.db.collection<OutboxFields>(name).countDocuments({ outboxPending: true })
      let oldest = now
      for (const doc of docs) {
        for (const event of doc.outbox ?? []) {
          const at = Date.parse(event.occurredAt)
          if (at < oldest) oldest = at
        }
      }
      pending.set({ collection: name }, count)
      oldestAge.set({ collection: name }, Math.max(0, (now - oldest) / 1000))
    }
    lastRead = now
  }
}
