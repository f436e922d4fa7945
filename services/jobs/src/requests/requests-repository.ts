import type { Db } from 'mongodb'
import {
  createRequestStore,
  requestIndexes as indexesOfRequests,
  type RequestOutboxTarget,
} from '@marketplace/request-lifecycle'
import {
  JOB_REQUESTS_COLLECTION,
  REQUEST_TOMBSTONES_COLLECTION,
  type JobRequestDocument,
} from './request-document'

/** The requester sends; the post's owner receives and decides. */
const parties = { sender: 'requesterId', receiver: 'ownerId' } as const

/** Indexes, equality then sort (docs/post-requests.md lists the query each serves). */
export const requestIndexes = indexesOfRequests({
  collection: JOB_REQUESTS_COLLECTION,
  parties,
  unique: { keys: { postId: 1, requesterId: 1 }, name: 'one_request_per_post' },
})

export function createRequestsRepository(
  db: Db,
  hooks: { notifyOutbox(target: RequestOutboxTarget): void },
) {
  const store = createRequestStore<JobRequestDocument>(db, {
    collection: JOB_REQUESTS_COLLECTION,
    tombstones: REQUEST_TOMBSTONES_COLLECTION,
    parties,
    notifyOutbox: hooks.notifyOutbox,
  })
  const requests = db.collection<JobRequestDocument>(JOB_REQUESTS_COLLECTION)

  return {
    ...store,

    async deleteOfPost(postId: string): Promise<void> {
      await requests.deleteMany({ postId })
    },

    /** user.deleted: every request the user sent or received; answers the ones they sent. */
    async deleteOfUser(userId: string): Promise<JobRequestDocument[]> {
      const sent = await store.sent(userId)
      await store.deleteOfUser(userId)
      return sent
    },
  }
}

export type RequestsRepository = ReturnType<typeof createRequestsRepository>
