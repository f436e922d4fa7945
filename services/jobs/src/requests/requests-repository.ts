import type { Db } from 'mongodb'
import {
  createRequestStore,
  requestCollectionIndexes,
  type RequestOutboxTarget,
} from '@marketplace/request-lifecycle'
import { JOB_REQUESTS, type JobRequestDocument } from './request-document'

/** Indexes, equality then sort (docs/post-requests.md lists the query each serves). */
export const requestIndexes = requestCollectionIndexes(JOB_REQUESTS)

export function createRequestsRepository(
  db: Db,
  hooks: { notifyOutbox(target: RequestOutboxTarget): void },
) {
  const store = createRequestStore(db, JOB_REQUESTS, hooks.notifyOutbox)
  const requests = db.collection<JobRequestDocument>(JOB_REQUESTS.name)

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
