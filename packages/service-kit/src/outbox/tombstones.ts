import { ObjectId, type Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import { insertWithEvents } from './outbox-fields'

/**
 * The events of a deletion cannot ride in the deleted document, so they wait in a tombstone
 * of their own (a collection the relay also drains), written before the delete: if the delete
 * then fails, the events are still true of an attempt the client will repeat, and consumers
 * treat the deletion of something they don't know as done. Answers the tombstone's id, for
 * the relay's `notify`, or null when there are no events.
 */
export async function insertTombstone(
  db: Db,
  collection: string,
  deletedId: string,
  events: DomainEvent[],
): Promise<string | null> {
  if (events.length === 0) return null
  const id = `${deletedId}:${new ObjectId().toHexString()}`
  await db
    .collection<{ _id: string; deletedAt: Date }>(collection)
    .insertOne(insertWithEvents({ _id: id, deletedAt: new Date() }, events))
  return id
}
