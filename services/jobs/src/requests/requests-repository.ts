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
    /** The requests on one post (the unique index's prefix serves it). */
    ofPost: async (postId: string): Promise<JobRequestDocument[]> =>
      requests.find({ postId }, { projection: { outbox: 0, outboxPending: 0 } }).toArray(),
  }
}

export type RequestsRepository = ReturnType<typeof createRequestsRepository>
