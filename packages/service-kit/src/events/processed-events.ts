import type { Db } from 'mongodb'
import type { IndexDefinition } from '../plugins/mongodb'

export const PROCESSED_EVENTS_COLLECTION = 'processed_events'

/**
 * How long the ledger remembers an event: twice Kafka's retention (`log.retention.hours`,
 * 168 h by default, which neither infra/local nor the compose and k8s brokers change). A
 * redelivery comes from the broker, so an event older than the retention can no longer be
 * delivered again and its record only grows the collection.
 */
export const PROCESSED_EVENTS_RETENTION_MS = 14 * 24 * 60 * 60 * 1000

/**
 * The expiry as MongoDB runs it: a TTL index on `processedAt`. FerretDB v1 refuses the TTL
 * option ("Index option expireAfterSeconds is not implemented yet", checked against v1.24.2):
 * `ensureIndexes` then keeps the plain index and the sweep below does the expiry.
 */
export const PROCESSED_EVENTS_INDEXES: IndexDefinition[] = [
  {
    collection: PROCESSED_EVENTS_COLLECTION,
    keys: { processedAt: 1 },
    options: {
      name: 'processed_events_expiry',
      expireAfterSeconds: PROCESSED_EVENTS_RETENTION_MS / 1000,
    },
  },
]

type ProcessedEvent = { _id: string; processedAt: Date; type: string }

/**
 * The consumer's memory of what it already handled, in the consuming service's own
 * database: one document per (consumer group, event id). A redelivered event is found here
 * and skipped. For effects that must be exactly-once even if the process dies between the
 * effect and this record, handlers also make their write idempotent (upsert by a natural
 * key, or a guard on the event id inside the same document).
 */
export function createProcessedEvents(db: Db, groupId: string) {
  const collection = db.collection<ProcessedEvent>(PROCESSED_EVENTS_COLLECTION)
  const key = (eventId: string) => `${groupId}|${eventId}`
  return {
    async has(eventId: string): Promise<boolean> {
      return (await collection.countDocuments({ _id: key(eventId) }, { limit: 1 })) > 0
    },
    async remember(eventId: string, type: string): Promise<void> {
      await collection.updateOne(
        { _id: key(eventId) },
        { $setOnInsert: { processedAt: new Date(), type } },
        { upsert: true },
      )
    },
  }
}

/**
 * Removes the records older than the retention, a batch at a time, and says how many went.
 * Where the TTL index runs (MongoDB) it finds nothing left to do; on FerretDB, which does not
 * use the index, each batch's look-up scans the collection, hence once an hour, and deletes by
 * `_id` so no write holds the database's write lock for a whole scan.
 */
export async function sweepProcessedEvents(
  db: Db,
  { now = Date.now(), batchSize = 500 }: { now?: number; batchSize?: number } = {},
): Promise<number> {
  const collection = db.collection<ProcessedEvent>(PROCESSED_EVENTS_COLLECTION)
  const expired = { processedAt: { $lt: new Date(now - PROCESSED_EVENTS_RETENTION_MS) } }
  let removed = 0
  for (;;) {
    const batch = await collection
      .find(expired, { projection: { _id: 1 }, limit: batchSize })
      .toArray()
    if (batch.length === 0) return removed
    const { deletedCount } = await collection.deleteMany({
      _id: { $in: batch.map((record) => record._id) },
    })
    removed += deletedCount
    if (batch.length < batchSize) return removed
  }
}
