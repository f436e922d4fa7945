import type { DomainEvent } from '@marketplace/contracts/events'
import type { Collection, Document, Filter, UpdateFilter, WithId } from 'mongodb'

/**
 * Transactional outbox without multi-document transactions (FerretDB and many managed
 * MongoDB tiers have none): the events ride inside the document whose change they describe,
 * written by the same single-document insert or update. Either both the change and its
 * events are stored, or neither. The relay publishes them and then removes them.
 */
export interface OutboxFields {
  outbox?: DomainEvent[]
  /** Set while `outbox` holds events, so the relay finds pending documents by an index. */
  outboxPending?: true
}

export const OUTBOX_PENDING_INDEX = { keys: { outboxPending: 1 }, name: 'outbox_pending' } as const

/** A new document together with the events its creation emits. */
export function insertWithEvents<T extends Document>(
  doc: T,
  events: DomainEvent[],
): T & OutboxFields {
  return events.length === 0 ? doc : { ...doc, outbox: events, outboxPending: true }
}

/**
 * Adds events to an update. The caller's own `$set`/`$push` parts are kept; the change and
 * its events still land in one atomic single-document write.
 */
export function updateWithEvents<T extends Document>(
  update: UpdateFilter<T>,
  events: DomainEvent[],
): UpdateFilter<T> {
  if (events.length === 0) return update
  const merged = { ...update } as Record<string, Record<string, unknown>>
  merged.$set = { ...(merged.$set ?? {}), outboxPending: true }
  merged.$push = { ...(merged.$push ?? {}), outbox: { $each: events } }
  return merged as UpdateFilter<T>
}

/**
 * Applies `update` with its events to the one document `filter` matches, and answers the
 * document after it without its outbox fields, or null when nothing matched (a guard that no
 * longer holds). No projection: FerretDB's findAndModify has none, so the outbox is dropped
 * here.
 */
export async function findOneAndUpdateWithEvents<T extends Document>(
  collection: Collection<T>,
  filter: Filter<T>,
  update: UpdateFilter<T>,
  events: DomainEvent[],
): Promise<WithId<T> | null> {
  const result = (await collection.findOneAndUpdate(filter, updateWithEvents(update, events), {
    returnDocument: 'after',
  })) as (WithId<T> & OutboxFields) | null
  if (result) {
    delete result.outbox
    delete result.outboxPending
  }
  return result
}
