import type { Db } from 'mongodb'
import {
  createRequestStore,
  requestCollectionIndexes,
  type RequestOutboxTarget,
} from '@marketplace/request-lifecycle'
import type { IndexDefinition } from '@marketplace/service-kit'
import { JOB_REQUESTS, JOB_REQUESTS_COLLECTION, type JobRequestDocument } from './request-document'

/** Indexes, equality then sort (docs/post-requests.md lists the query each serves). */
export const requestIndexes: IndexDefinition[] = [
  ...requestCollectionIndexes(JOB_REQUESTS),
  // Who may see hidden fields: the accepted requests of some posts, or of all (feed load).
  {
    collection: JOB_REQUESTS_COLLECTION,
    keys: { status: 1, postId: 1 },
    options: { name: 'accepted_by_post' },
  },
]

const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }
const requesterOnly = { projection: { _id: 0, postId: 1, requesterId: 1 } }

export function createRequestsRepository(
  db: Db,
  hooks: { notifyOutbox(target: RequestOutboxTarget): void },
) {
  const store = createRequestStore(db, JOB_REQUESTS, hooks.notifyOutbox)
  const requests = db.collection<JobRequestDocument>(JOB_REQUESTS.name)

  /** The requesters of each post, from rows of (postId, requesterId). */
  function byPost(rows: Array<Pick<JobRequestDocument, 'postId' | 'requesterId'>>) {
    const result = new Map<string, string[]>()
    for (const { postId, requesterId } of rows) {
      result.set(postId, [...(result.get(postId) ?? []), requesterId])
    }
    return result
  }

  return {
    ...store,
    /** The requests on one post (the unique index's prefix serves it). */
    ofPost: async (postId: string): Promise<JobRequestDocument[]> =>
      requests.find({ postId }, withoutOutbox).toArray(),

    /** The requesters whose request is accepted, for each post named. */
    async acceptedOn(postIds: readonly string[]): Promise<Map<string, string[]>> {
      if (postIds.length === 0) return new Map()
      const filter = { status: 'accepted' as const, postId: { $in: [...new Set(postIds)] } }
      return byPost(await requests.find(filter, requesterOnly).toArray())
    },

    /** The accepted requesters of every post. */
    allAccepted: async (): Promise<Map<string, string[]>> =>
      byPost(await requests.find({ status: 'accepted' }, requesterOnly).toArray()),
  }
}

export type RequestsRepository = ReturnType<typeof createRequestsRepository>
