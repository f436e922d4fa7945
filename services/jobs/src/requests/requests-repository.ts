import type { Db, FindOptions } from 'mongodb'
import {
  DuplicateRequestError,
  createRequestStore,
  requestCollectionIndexes,
  type RequestOutboxTarget,
} from '@marketplace/request-lifecycle'
import { createUserLists, type IndexDefinition } from '@marketplace/service-kit'
import { JOB_REQUESTS, JOB_REQUESTS_COLLECTION, type JobRequestDocument } from './request-document'

/**
 * Each post's requests, `<postId>:requests` (service-kit lists/user-lists.ts, issue 19 §2):
 * who may see a post's hidden fields is read from its own requests by `_id`, whatever the
 * size of the collection (the local server answers `{status, postId: {$in}}` by reading
 * every request). Membership only: a decision writes the request alone, so a decision and
 * the access it gives stay one write (issue 18 §14).
 */
export const POST_REQUEST_LISTS_COLLECTION = 'post_request_lists'
const ON_POST = 'requests'

/** Indexes, equality then sort (docs/post-requests.md lists the query each serves). */
export const requestIndexes: IndexDefinition[] = [
  ...requestCollectionIndexes(JOB_REQUESTS),
  // Who may see hidden fields: the accepted requests of every post (the feed's load). Those
  // of some posts are read from each post's list (POST_REQUEST_LISTS_COLLECTION).
  {
    collection: JOB_REQUESTS_COLLECTION,
    keys: { status: 1, postId: 1 },
    options: { name: 'accepted_by_post' },
  },
]

const withoutOutbox: FindOptions = { projection: { outbox: 0, outboxPending: 0 } }
const requesterOnly = { projection: { _id: 0, postId: 1, requesterId: 1 } }
const decisionOnly: FindOptions = { projection: { _id: 1, postId: 1, requesterId: 1, status: 1 } }

export function createRequestsRepository(
  db: Db,
  hooks: { notifyOutbox(target: RequestOutboxTarget): void },
) {
  const store = createRequestStore(db, JOB_REQUESTS, hooks.notifyOutbox)
  const requests = db.collection<JobRequestDocument>(JOB_REQUESTS.name)
  const postLists = createUserLists(db, POST_REQUEST_LISTS_COLLECTION)

  /** The ids of the post's requests; a post's requests stored before the lists fill it once. */
  const idsOnPost = (postId: string) =>
    postLists.ids(postId, ON_POST, async () =>
      // The unique index one_request_per_post starts with postId.
      (await requests.find({ postId }, { projection: { _id: 1 } }).toArray()).map((r) => r._id),
    )

  /** The requesters of each post, from rows of (postId, requesterId). */
  function byPost(rows: Array<Pick<JobRequestDocument, 'postId' | 'requesterId'>>) {
    const result = new Map<string, string[]>()
    for (const { postId, requesterId } of rows) {
      result.set(postId, [...(result.get(postId) ?? []), requesterId])
    }
    return result
  }

  /**
   * The post's requests, each read by `_id` (in parallel: FerretDB v1 reads `$in` by a
   * scan), with the fields `options` projects.
   */
  async function onPost(postId: string, options: FindOptions): Promise<JobRequestDocument[]> {
    const found = await Promise.all(
      (await idsOnPost(postId)).map((id) => requests.findOne({ _id: id }, options)),
    )
    // Skipped: an id whose request is gone or still being inserted (user-lists.ts).
    return found.filter((doc): doc is JobRequestDocument => doc !== null && doc.postId === postId)
  }

  return {
    ...store,

    /** Listed on its post before the insert, as on its two sides (the store's lists). */
    async insert(request: JobRequestDocument, events: Parameters<typeof store.insert>[1]) {
      await postLists.add(request.postId, ON_POST, request._id)
      try {
        await store.insert(request, events)
      } catch (error) {
        // The unique index refused a second request: its id never was a request.
        if (error instanceof DuplicateRequestError) {
          await postLists.remove(request.postId, ON_POST, [request._id])
        }
        throw error
      }
    },

    /** Unlisted from its post after the delete (a crash in between leaves an id the reader skips). */
    async delete(id: string, events: Parameters<typeof store.delete>[1]) {
      const current = await requests.findOne({ _id: id }, { projection: { postId: 1 } })
      const deleted = await store.delete(id, events)
      if (current) await postLists.remove(current.postId, ON_POST, [id])
      return deleted
    },

    /** The requests on one post, from its list. */
    ofPost: (postId: string): Promise<JobRequestDocument[]> => onPost(postId, withoutOutbox),

    /**
     * The post is gone and each of its requests with it: its list goes too. A read of the
     * post's readers after this (the feed's refresh of the deleted post) leaves it again,
     * empty: a list marked complete is what spares a post with no requests the fill's query.
     */
    forgetPost: (postId: string) => postLists.forget(postId, [ON_POST]),

    /** The requesters whose request is accepted, for each post named (from each post's list). */
    async acceptedOn(postIds: readonly string[]): Promise<Map<string, string[]>> {
      const each = await Promise.all(
        [...new Set(postIds)].map((postId) => onPost(postId, decisionOnly)),
      )
      return byPost(each.flat().filter((request) => request.status === 'accepted'))
    },

    /** The accepted requesters of every post. */
    allAccepted: async (): Promise<Map<string, string[]>> =>
      byPost(await requests.find({ status: 'accepted' }, requesterOnly).toArray()),
  }
}

export type RequestsRepository = ReturnType<typeof createRequestsRepository>
