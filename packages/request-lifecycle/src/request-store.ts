import { MongoServerError, ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  findOneAndUpdateWithEvents,
  insertTombstone,
  insertWithEvents,
  type IndexDefinition,
} from '@marketplace/service-kit'
import type { RequestDocument, RequestParties, RequestRole } from './request-document'

/** A write that stored events, named to the outbox relay (service-kit's `OutboxTarget`). */
export interface RequestOutboxTarget {
  collection: string
  id: string
  outbox?: DomainEvent[]
}

export interface RequestStoreOptions<Doc extends RequestDocument> {
  /** The requests themselves. */
  collection: string
  /** Where a deleted request's events wait for the relay (service-kit tombstones.ts). */
  tombstones: string
  parties: RequestParties<Doc>
  notifyOutbox(target: RequestOutboxTarget): void
}

/** The unique index refused a second request: the caller answers 409. */
export class DuplicateRequestError extends Error {}

/** The state a decision writes. */
export type Decision<Doc extends RequestDocument> = Pick<Doc, 'status' | 'updatedAt'>

/** The only code that touches a request collection and its tombstones. */
export interface RequestStore<Doc extends RequestDocument> {
  readonly parties: RequestParties<Doc>
  newId(): string
  /** Stores a new request with its events; DuplicateRequestError when the unique index refuses. */
  insert(request: Doc, events: DomainEvent[]): Promise<void>
  findById(id: string): Promise<Doc | null>
  /** The requests `userId` sent, newest first. */
  sent(userId: string): Promise<Doc[]>
  /** The requests `userId` received, newest first. */
  received(userId: string): Promise<Doc[]>
  /**
   * Writes `decision` with its events only if the request is still as `current` was read;
   * answers the request after it, or null when another write came first (or it is gone).
   */
  saveDecision(current: Doc, decision: Decision<Doc>, events: DomainEvent[]): Promise<Doc | null>
  /** Deletes the request, its events in a tombstone written first; false when it was gone. */
  delete(id: string, events: DomainEvent[]): Promise<boolean>
  /** user.deleted: every request the user sent or received. */
  deleteOfUser(userId: string): Promise<void>
}

/**
 * The indexes of a request collection, equality then sort: the unique one that makes a second
 * request a 409 even when two are sent in parallel, each side's list newest first, and the
 * outbox flag.
 */
export function requestIndexes(options: {
  collection: string
  parties: Readonly<Record<RequestRole, string>>
  unique: { keys: Record<string, 1>; name: string }
}): IndexDefinition[] {
  const { collection, parties, unique } = options
  return [
    { collection, keys: unique.keys, options: { name: unique.name, unique: true } },
    { collection, keys: { [parties.sender]: 1, createdAt: -1 }, options: { name: 'sent_recent' } },
    {
      collection,
      keys: { [parties.receiver]: 1, createdAt: -1 },
      options: { name: 'received_recent' },
    },
    { collection, keys: OUTBOX_PENDING_INDEX.keys, options: { name: OUTBOX_PENDING_INDEX.name } },
  ]
}

export function createRequestStore<Doc extends RequestDocument>(
  db: Db,
  options: RequestStoreOptions<Doc>,
): RequestStore<Doc> {
  const { parties, notifyOutbox } = options
  const requests = db.collection<RequestDocument>(options.collection)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }
  const newestFirst = { createdAt: -1, _id: -1 } as const
  // The driver's filter types cannot follow field names chosen by a type parameter; the
  // collection is typed by the common fields, and these are the only places that widen.
  const byField = (field: string, value: string) => ({ [field]: value }) as Filter<RequestDocument>
  const asRequest = (doc: RequestDocument | null) => doc as Doc | null
  const asRequests = (docs: RequestDocument[]) => docs as Doc[]

  return {
    parties,
    newId: () => new ObjectId().toHexString(),

    async insert(request, events) {
      try {
        await requests.insertOne(insertWithEvents(request, events))
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000)
          throw new DuplicateRequestError()
        throw error
      }
      notifyOutbox({ collection: options.collection, id: request._id, outbox: events })
    },

    findById: async (id) => asRequest(await requests.findOne({ _id: id }, withoutOutbox)),

    sent: async (userId) =>
      asRequests(
        await requests
          .find(byField(parties.sender, userId), withoutOutbox)
          .sort(newestFirst)
          .toArray(),
      ),

    received: async (userId) =>
      asRequests(
        await requests
          .find(byField(parties.receiver, userId), withoutOutbox)
          .sort(newestFirst)
          .toArray(),
      ),

    async saveDecision(current, decision, events) {
      const set: UpdateFilter<RequestDocument> = {
        $set: { status: decision.status, updatedAt: decision.updatedAt },
      }
      const saved = await findOneAndUpdateWithEvents(
        requests,
        { _id: current._id, status: current.status, updatedAt: current.updatedAt },
        set,
        events,
      )
      if (saved) notifyOutbox({ collection: options.collection, id: current._id })
      return asRequest(saved)
    },

    async delete(id, events) {
      const tombstoneId = await insertTombstone(db, options.tombstones, id, events)
      const { deletedCount } = await requests.deleteOne({ _id: id })
      if (tombstoneId) notifyOutbox({ collection: options.tombstones, id: tombstoneId })
      return deletedCount === 1
    },

    async deleteOfUser(userId) {
      await requests.deleteMany(byField(parties.sender, userId))
      await requests.deleteMany(byField(parties.receiver, userId))
    },
  }
}
