import { MongoServerError, ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  findOneAndUpdateWithEvents,
  insertTombstone,
  insertWithEvents,
} from '@marketplace/service-kit'
import type { RequestCollection } from './request-collection'
import type { RequestDocument, RequestParties, RequestRole } from './request-document'

/** A write that stored events, named to the outbox relay (service-kit's `OutboxTarget`). */
export interface RequestOutboxTarget {
  collection: string
  id: string
  outbox?: DomainEvent[]
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
  /** The requests `userId` sent, newest first (one query on the index `sent_recent`). */
  sent(userId: string): Promise<Doc[]>
  /** The requests `userId` received, newest first (one query on the index `received_recent`). */
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

export function createRequestStore<Doc extends RequestDocument>(
  db: Db,
  declared: RequestCollection<Doc>,
  notifyOutbox: (target: RequestOutboxTarget) => void,
): RequestStore<Doc> {
  const { parties } = declared
  const requests = db.collection<RequestDocument>(declared.name)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }
  // The driver's filter types cannot follow field names chosen by a type parameter; the
  // collection is typed by the common fields, and these are the only places that widen.
  const sideOf = (role: RequestRole, userId: string) =>
    ({ [parties[role]]: userId }) as Filter<RequestDocument>
  const asRequest = (doc: RequestDocument | null) => doc as Doc | null
  const asRequests = (docs: RequestDocument[]) => docs as Doc[]
  const byNewest = (a: RequestDocument, b: RequestDocument) =>
    b.createdAt.getTime() - a.createdAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0)
  /**
   * The requests on `role`'s side of `userId`, newest first: one query on the side's index
   * (`sent_recent`, `received_recent`), which keeps them by date; requests of the same instant
   * are put in `_id` order here.
   */
  async function listOf(role: RequestRole, userId: string) {
    const found = await requests
      .find(sideOf(role, userId), withoutOutbox)
      .sort({ createdAt: -1 })
      .toArray()
    return asRequests(found.sort(byNewest))
  }

  return {
    parties,
    newId: () => new ObjectId().toHexString(),

    async insert(request, events) {
      try {
        await requests.insertOne(insertWithEvents(request, events))
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) {
          throw new DuplicateRequestError()
        }
        throw error
      }
      notifyOutbox({ collection: declared.name, id: request._id, outbox: events })
    },

    findById: async (id) => asRequest(await requests.findOne({ _id: id }, withoutOutbox)),

    sent: (userId) => listOf('sender', userId),
    received: (userId) => listOf('receiver', userId),

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
      if (saved) notifyOutbox({ collection: declared.name, id: current._id })
      return asRequest(saved)
    },

    async delete(id, events) {
      const tombstoneId = await insertTombstone(db, declared.tombstones, id, events)
      const { deletedCount } = await requests.deleteOne({ _id: id })
      if (tombstoneId) notifyOutbox({ collection: declared.tombstones, id: tombstoneId })
      return deletedCount === 1
    },

    async deleteOfUser(userId) {
      await requests.deleteMany(sideOf('sender', userId))
      await requests.deleteMany(sideOf('receiver', userId))
    },
  }
}
