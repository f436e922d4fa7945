import { MongoServerError, ObjectId, type Db, type UpdateFilter } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  insertTombstone,
  insertWithEvents,
  findOneAndUpdateWithEvents,
  type IndexDefinition,
  type OutboxTarget,
} from '@marketplace/service-kit'
import {
  JOB_REQUESTS_COLLECTION,
  REQUEST_TOMBSTONES_COLLECTION,
  type JobRequestDocument,
} from './request-document'

/** Indexes, equality then sort (docs/post-requests.md lists the query each serves). */
export const requestIndexes: IndexDefinition[] = [
  // One request per requester and post; the database decides, so two parallel sends
  // cannot both succeed (the second gets the 409).
  {
    collection: JOB_REQUESTS_COLLECTION,
    keys: { postId: 1, requesterId: 1 },
    options: { name: 'one_request_per_post', unique: true },
  },
  // Received requests: ownerId = ?, newest first.
  {
    collection: JOB_REQUESTS_COLLECTION,
    keys: { ownerId: 1, createdAt: -1 },
    options: { name: 'received_recent' },
  },
  // Sent requests: requesterId = ?, newest first.
  {
    collection: JOB_REQUESTS_COLLECTION,
    keys: { requesterId: 1, createdAt: -1 },
    options: { name: 'sent_recent' },
  },
  {
    collection: JOB_REQUESTS_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]

export class DuplicateRequestError extends Error {}

export function createRequestsRepository(
  db: Db,
  hooks: { notifyOutbox(target: OutboxTarget): void },
) {
  const requests = db.collection<JobRequestDocument>(JOB_REQUESTS_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }

  return {
    newId: () => new ObjectId().toHexString(),

    async insert(request: JobRequestDocument, events: DomainEvent[]): Promise<void> {
      try {
        await requests.insertOne(insertWithEvents(request, events))
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000)
          throw new DuplicateRequestError()
        throw error
      }
      hooks.notifyOutbox({ collection: JOB_REQUESTS_COLLECTION, id: request._id, outbox: events })
    },

    findById: (id: string) => requests.findOne({ _id: id }, withoutOutbox),

    received: (ownerId: string) =>
      requests.find({ ownerId }, withoutOutbox).sort({ createdAt: -1, _id: -1 }).toArray(),

    sent: (requesterId: string) =>
      requests.find({ requesterId }, withoutOutbox).sort({ createdAt: -1, _id: -1 }).toArray(),

    async update(
      id: string,
      update: UpdateFilter<JobRequestDocument>,
      events: DomainEvent[],
    ): Promise<JobRequestDocument | null> {
      const result = await findOneAndUpdateWithEvents(requests, { _id: id }, update, events)
      if (result) hooks.notifyOutbox({ collection: JOB_REQUESTS_COLLECTION, id })
      return result
    },

    async delete(id: string, events: DomainEvent[]): Promise<boolean> {
      const tombstoneId = await insertTombstone(db, REQUEST_TOMBSTONES_COLLECTION, id, events)
      const { deletedCount } = await requests.deleteOne({ _id: id })
      if (tombstoneId)
        hooks.notifyOutbox({ collection: REQUEST_TOMBSTONES_COLLECTION, id: tombstoneId })
      return deletedCount === 1
    },

    async deleteOfPost(postId: string): Promise<void> {
      await requests.deleteMany({ postId })
    },

    /** user.deleted: every request the user sent or received; answers the ones they sent. */
    async deleteOfUser(userId: string): Promise<JobRequestDocument[]> {
      const sent = await requests.find({ requesterId: userId }, withoutOutbox).toArray()
      await requests.deleteMany({ requesterId: userId })
      await requests.deleteMany({ ownerId: userId })
      return sent
    },
  }
}

export type RequestsRepository = ReturnType<typeof createRequestsRepository>
