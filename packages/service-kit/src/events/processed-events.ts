import type { Db } from 'mongodb'

export const PROCESSED_EVENTS_COLLECTION = 'processed_events'

/**
 * The consumer's memory of what it already handled, in the consuming service's own
 * database: one document per (consumer group, event id). A redelivered event is found here
 * and skipped. For effects that must be exactly-once even if the process dies between the
 * effect and this record, handlers also make their write idempotent (upsert by a natural
 * key, or a guard on the event id inside the same document).
 */
export function createProcessedEvents(db: Db, groupId: string) {
  const collection = db.collection<{ _id: string; processedAt: Date; type: string }>(
    PROCESSED_EVENTS_COLLECTION,
  )
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
