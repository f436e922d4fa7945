import type { Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import type { IndexDefinition } from '@marketplace/service-kit'

/**
 * What the people service knows of requests on posts (the jobs service's job-request.*
 * events): who owns the post, who asked to do it, and whether the owner accepted. Enough to
 * decide who may rate whom, without asking the jobs service. A deleted request is kept as a
 * marker, so an older event replayed after the deletion cannot bring it back; user.deleted of
 * either side removes the entries, markers included.
 */
export const KNOWN_JOB_REQUESTS_COLLECTION = 'known_job_requests'

export interface KnownJobRequest {
  /** The jobs service's request id. */
  _id: string
  postId: string
  postTitle: string
  /** The post's owner: the one who decides, and who may rate. */
  ownerId: string
  /** The worker who asked to do the post: the one who is rated. */
  requesterId: string
  status: RequestStatus
  deleted: boolean
  /** When the first event of the request happened (about when it was sent). */
  createdAt: Date
  /** `occurredAt` of the newest event applied: an older one changes nothing. */
  eventAt: Date
}

export const knownJobRequestIndexes: IndexDefinition[] = [
  // GET /api/people/ratings/rateable: ownerId = ?, status = accepted, not deleted, newest
  // first (ties by _id): every filtered and sorted field in the key (docs/scale.md).
  {
    collection: KNOWN_JOB_REQUESTS_COLLECTION,
    keys: { ownerId: 1, status: 1, deleted: 1, createdAt: -1, _id: -1 },
    options: { name: 'owner_accepted_recent' },
  },
  // user.deleted of a worker.
  {
    collection: KNOWN_JOB_REQUESTS_COLLECTION,
    keys: { requesterId: 1 },
    options: { name: 'by_requester' },
  },
]

type JobRequestEvent =
  | DomainEvent<'job-request.created'>
  | DomainEvent<'job-request.decided'>
  | DomainEvent<'job-request.deleted'>

export function createKnownJobRequests(db: Db) {
  const requests = db.collection<KnownJobRequest>(KNOWN_JOB_REQUESTS_COLLECTION)

  /**
   * Stores the state an event describes. Events of one request arrive in order (keyed by the
   * request id), so read-compare-write is enough; the comparison only guards against a
   * replay of an older event.
   */
  async function record(event: JobRequestEvent, deleted: boolean): Promise<void> {
    const { data } = event
    const at = new Date(event.occurredAt)
    const current = await requests.findOne({ _id: data.requestId })
    if (current?.deleted) return
    // A request never known needs no marker: its older events came before this one. After
    // a purge (user.deleted removed the user's entries) the jobs service's cascade deletes
    // the user's requests, and a marker would bring their ids back.
    if (deleted && !current) return
    if (current && current.eventAt.getTime() > at.getTime()) return
    await requests.replaceOne(
      { _id: data.requestId },
      {
        postId: data.postId,
        postTitle: data.postTitle,
        ownerId: data.ownerId,
        requesterId: data.requesterId,
        status: data.status,
        deleted,
        createdAt: current?.createdAt ?? at,
        eventAt: at,
      },
      { upsert: true },
    )
  }

  return {
    findById: (requestId: string) => requests.findOne({ _id: requestId }),

    /** The owner's accepted requests, newest first. */
    acceptedOf: (ownerId: string) =>
      requests
        .find({ ownerId, status: 'accepted', deleted: false })
        .sort({ createdAt: -1, _id: -1 })
        .toArray(),

    handlers: {
      'job-request.created': (event: DomainEvent<'job-request.created'>) => record(event, false),
      'job-request.decided': (event: DomainEvent<'job-request.decided'>) => record(event, false),
      'job-request.deleted': (event: DomainEvent<'job-request.deleted'>) => record(event, true),
    },

    /** user.deleted: every request the user owned or sent. */
    async deleteOfUser(userId: string): Promise<void> {
      await requests.deleteMany({ ownerId: userId })
      await requests.deleteMany({ requesterId: userId })
    },
  }
}

export type KnownJobRequests = ReturnType<typeof createKnownJobRequests>
