import { MongoServerError, ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  insertTombstone,
  insertWithEvents,
  findOneAndUpdateWithEvents,
  type IndexDefinition,
} from '@marketplace/service-kit'
import {
  PEOPLE_REQUESTS_COLLECTION,
  PEOPLE_REQUEST_TOMBSTONES_COLLECTION,
  type PeopleRequestDocument,
} from './people-request-document'

/** Indexes, equality then sort (docs/people.md lists the query each serves). */
export const peopleRequestIndexes: IndexDefinition[] = [
  // One request per post and person; the database decides, so two parallel sends cannot
  // both succeed (the second gets the 409).
  {
    collection: PEOPLE_REQUESTS_COLLECTION,
    keys: { postId: 1, workerId: 1 },
    options: { name: 'one_request_per_post_and_person', unique: true },
  },
  // Sent: ownerId = ?, newest first.
  {
    collection: PEOPLE_REQUESTS_COLLECTION,
    keys: { ownerId: 1, createdAt: -1 },
    options: { name: 'sent_recent' },
  },
  // Received: workerId = ?, newest first.
  {
    collection: PEOPLE_REQUESTS_COLLECTION,
    keys: { workerId: 1, createdAt: -1 },
    options: { name: 'received_recent' },
  },
  {
    collection: PEOPLE_REQUESTS_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]

export class DuplicatePeopleRequestError extends Error {}

export function createPeopleRequestsRepository(
  db: Db,
  hooks: { notifyOutbox(target: { collection: string; id: string }): void },
) {
  const requests = db.collection<PeopleRequestDocument>(PEOPLE_REQUESTS_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }
  const newestFirst = { createdAt: -1, _id: -1 } as const

  return {
    newId: () => new ObjectId().toHexString(),

    async insert(request: PeopleRequestDocument, events: DomainEvent[]): Promise<void> {
      try {
        await requests.insertOne(insertWithEvents(request, events))
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000)
          throw new DuplicatePeopleRequestError()
        throw error
      }
      hooks.notifyOutbox({ collection: PEOPLE_REQUESTS_COLLECTION, id: request._id })
    },

    findById: (id: string) => requests.findOne({ _id: id }, withoutOutbox),

    sent: (ownerId: string) =>
      requests.find({ ownerId }, withoutOutbox).sort(newestFirst).toArray(),

    received: (workerId: string) =>
      requests.find({ workerId }, withoutOutbox).sort(newestFirst).toArray(),

    /** Applies `update` when `guard` still matches; answers the request after it. */
    async update(
      id: string,
      update: UpdateFilter<PeopleRequestDocument>,
      events: DomainEvent[],
      guard: Filter<PeopleRequestDocument> = {},
    ): Promise<PeopleRequestDocument | null> {
      const result = await findOneAndUpdateWithEvents(
        requests,
        { ...guard, _id: id } as Filter<PeopleRequestDocument>,
        update,
        events,
      )
      if (result && events.length > 0)
        hooks.notifyOutbox({ collection: PEOPLE_REQUESTS_COLLECTION, id })
      return result
    },

    /** Deletes the request with its events (tombstone first: service-kit tombstones.ts). */
    async delete(id: string, events: DomainEvent[]): Promise<boolean> {
      const tombstoneId = await insertTombstone(
        db,
        PEOPLE_REQUEST_TOMBSTONES_COLLECTION,
        id,
        events,
      )
      const { deletedCount } = await requests.deleteOne({ _id: id })
      if (tombstoneId)
        hooks.notifyOutbox({ collection: PEOPLE_REQUEST_TOMBSTONES_COLLECTION, id: tombstoneId })
      return deletedCount === 1
    },

    /** user.deleted: every request the user sent or received. */
    async deleteOfUser(userId: string): Promise<void> {
      await requests.deleteMany({ ownerId: userId })
      await requests.deleteMany({ workerId: userId })
    },
  }
}

export type PeopleRequestsRepository = ReturnType<typeof createPeopleRequestsRepository>
