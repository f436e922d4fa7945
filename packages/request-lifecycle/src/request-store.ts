import { MongoServerError, ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  createUserLists,
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
  /** The requests `userId` sent, newest first (from the user's list: reads by `_id`). */
  sent(userId: string): Promise<Doc[]>
  /** The requests `userId` received, newest first (from the user's list: reads by `_id`). */
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
  /**
   * user.deleted, once the user's requests were deleted one by one (each with its events):
   * the user's own lists go too (reading them made them, if they were not there).
   */
  forgetListsOf(userId: string): Promise<void>
}

export function createRequestStore<Doc extends RequestDocument>(
  db: Db,
  declared: RequestCollection<Doc>,
  notifyOutbox: (target: RequestOutboxTarget) => void,
): RequestStore<Doc> {
  const { parties } = declared
  const requests = db.collection<RequestDocument>(declared.name)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }
  const partyFields = { _id: 1, [parties.sender]: 1, [parties.receiver]: 1 }
  // The driver's filter types cannot follow field names chosen by a type parameter; the
  // collection is typed by the common fields, and these are the only places that widen.
  const sideOf = (role: RequestRole, userId: string) =>
    ({ [parties[role]]: userId }) as Filter<RequestDocument>
  const asRequest = (doc: RequestDocument | null) => doc as Doc | null
  const asRequests = (docs: RequestDocument[]) => docs as Doc[]
  // Each side's requests by user: one list document per user and side (service-kit
  // lists/user-lists.ts), so a list reads by `_id` whatever the size of the collection.
  const lists = createUserLists(db, declared.lists)
  const LIST: Record<RequestRole, string> = { sender: 'sent', receiver: 'received' }
  const ROLES: RequestRole[] = ['sender', 'receiver']
  /** Requests stored before the lists: the side's query (its index: sent_recent, received_recent). */
  const storedIdsOf = async (role: RequestRole, userId: string) =>
    (await requests.find(sideOf(role, userId), { projection: { _id: 1 } }).toArray()).map(
      (doc) => doc._id,
    )
  const byNewest = (a: RequestDocument, b: RequestDocument) =>
    b.createdAt.getTime() - a.createdAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0)
  /** The requests on `role`'s side of `userId`, newest first. */
  async function listOf(role: RequestRole, userId: string) {
    const ids = await lists.ids(userId, LIST[role], () => storedIdsOf(role, userId))
    const found = await Promise.all(ids.map((id) => requests.findOne({ _id: id }, withoutOutbox)))
    // Skipped: an id whose request is gone or not inserted yet (user-lists.ts says why).
    const party = parties[role] as keyof RequestDocument
    return asRequests(
      found
        .filter((doc): doc is RequestDocument => doc !== null && doc[party] === userId)
        .sort(byNewest),
    )
  }
  /** Both sides' lists of one request, each on its own user. */
  const partiesOf = (doc: RequestDocument) =>
    ROLES.map((role) => ({ role, userId: String(doc[parties[role] as keyof RequestDocument]) }))
  const unlist = (doc: RequestDocument) =>
    Promise.all(
      partiesOf(doc).map(({ role, userId }) => lists.remove(userId, LIST[role], [doc._id])),
    )

  return {
    parties,
    newId: () => new ObjectId().toHexString(),

    async insert(request, events) {
      // Listed first: a crash before the insert leaves an id the lists skip, never a
      // request missing from a list.
      const listed = partiesOf(request)
      await Promise.all(
        listed.map(({ role, userId }) => lists.add(userId, LIST[role], request._id)),
      )
      try {
        await requests.insertOne(insertWithEvents(request, events))
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) {
          await unlist(request)
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
      const current = await requests.findOne({ _id: id }, { projection: partyFields })
      const tombstoneId = await insertTombstone(db, declared.tombstones, id, events)
      const { deletedCount } = await requests.deleteOne({ _id: id })
      // Unlisted after the delete: a crash in between leaves an id the lists skip.
      if (current) await unlist(current)
      if (tombstoneId) notifyOutbox({ collection: declared.tombstones, id: tombstoneId })
      return deletedCount === 1
    },

    async deleteOfUser(userId) {
      const own = [...(await listOf('sender', userId)), ...(await listOf('receiver', userId))]
      await requests.deleteMany(sideOf('sender', userId))
      await requests.deleteMany(sideOf('receiver', userId))
      // The other side of each keeps its list without the ids; the user's own lists go.
      for (const doc of own) await unlist(doc)
      await lists.forget(userId, Object.values(LIST))
    },

    forgetListsOf: (userId) => lists.forget(userId, Object.values(LIST)),
  }
}
