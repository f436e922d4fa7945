import type { Db, FindOptions } from 'mongodb'
import {
  createRequestStore,
  requestCollectionIndexes,
  type RequestOutboxTarget,
} from '@marketplace/request-lifecycle'
import type { DomainEvent } from '@marketplace/contracts/events'
import { findOneAndUpdateWithEvents, type IndexDefinition } from '@marketplace/service-kit'
import { JOB_REQUESTS, JOB_REQUESTS_COLLECTION, type JobRequestDocument } from './request-document'

/** Indexes, equality then sort (docs/post-requests.md lists the query each serves). */
export const requestIndexes: IndexDefinition[] = [
  ...requestCollectionIndexes(JOB_REQUESTS),
  // Who may see hidden fields: the accepted requests of the posts a view shows, and of every
  // post (the feed's load). A post's requests are read on `one_request_per_post`, which
  // starts with postId.
  {
    collection: JOB_REQUESTS_COLLECTION,
    keys: { status: 1, postId: 1 },
    options: { name: 'accepted_by_post' },
  },
]

const withoutOutbox: FindOptions = { projection: { outbox: 0, outboxPending: 0 } }
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

    /** The requests on one post: one query on `one_request_per_post`. */
    ofPost: (postId: string): Promise<JobRequestDocument[]> =>
      requests.find({ postId }, withoutOutbox).toArray(),

    /** Who still waits for an answer on a post: one query on `one_request_per_post`. */
    pendingRequestersOf: async (postId: string): Promise<string[]> =>
      (
        await requests
          .find({ postId }, { projection: { _id: 0, requesterId: 1, status: 1 } })
          .toArray()
      )
        .filter((row) => row.status === 'pending')
        .map((row) => row.requesterId),

    /** The requesters whose request is accepted, for each post named: one query. */
    async acceptedOn(postIds: readonly string[]): Promise<Map<string, string[]>> {
      if (postIds.length === 0) return new Map()
      return byPost(
        await requests
          .find({ status: 'accepted', postId: { $in: [...new Set(postIds)] } }, requesterOnly)
          .toArray(),
      )
    },

    /**
     * Writes a change of the request's terms (a counter-offer, its answer) with its event,
     * only if the request is still as `current` was read: still pending, and no decision or
     * other change of terms landed since (its `updatedAt`). Null when another write came first.
     */
    async saveTerms(
      current: JobRequestDocument,
      terms: Pick<JobRequestDocument, 'offer' | 'counter' | 'updatedAt'>,
      events: DomainEvent[],
    ): Promise<JobRequestDocument | null> {
      const saved = await findOneAndUpdateWithEvents(
        requests,
        { _id: current._id, status: 'pending', updatedAt: current.updatedAt },
        { $set: terms },
        events,
      )
      if (saved) hooks.notifyOutbox({ collection: JOB_REQUESTS.name, id: current._id })
      return saved
    },

    /** The accepted requests of each requester named, read from their sent lists. */
    async acceptedCounts(requesterIds: readonly string[]): Promise<Map<string, number>> {
      const ids = [...new Set(requesterIds)]
      const lists = await Promise.all(ids.map((id) => store.sent(id)))
      return new Map(
        ids.map((id, index) => [
          id,
          lists[index]!.filter((request) => request.status === 'accepted').length,
        ]),
      )
    },

    /** The accepted requesters of every post. */
    allAccepted: async (): Promise<Map<string, string[]>> =>
      byPost(await requests.find({ status: 'accepted' }, requesterOnly).toArray()),
  }
}

export type RequestsRepository = ReturnType<typeof createRequestsRepository>
