import type { CounterState, OfferUnit } from '@marketplace/contracts/marketplace'
import type { RequestCollection, RequestDocument } from '@marketplace/request-lifecycle'

/** Requests on posts: one document per (post, requester). */
export const JOB_REQUESTS_COLLECTION = 'job_requests'
/** A deleted request's event waits here for the relay: the request itself is gone. */
export const REQUEST_TOMBSTONES_COLLECTION = 'job_request_tombstones'

/** A worker asked to do a post; the post's owner decides. */
export interface JobRequestDocument extends RequestDocument {
  postId: string
  /** The post's owner, who decides. */
  ownerId: string
  requesterId: string
  /** The post's title when the request was made: events need it without a lookup. */
  postTitle: string
  /**
   * The worker's price, or the owner's counter once the worker accepted it; absent or null
   * without an offer. Read only by the request's two sides (docs/post-requests.md, "Offers").
   */
  offer?: StoredOffer | null
  /** The owner's one counter-offer on this request, and where it stands. */
  counter?: StoredCounter | null
}

/** Amounts in cents: sums and comparisons stay exact. */
export interface StoredOffer {
  cents: number
  unit: OfferUnit
  note: string
  proposedTime: string
}

export interface StoredCounter {
  cents: number
  unit: OfferUnit
  note: string
  state: CounterState
  createdAt: Date
  answeredAt: Date | null
}

/** The requester sends, once per post; the post's owner receives and decides. */
export const JOB_REQUESTS: RequestCollection<JobRequestDocument> = {
  name: JOB_REQUESTS_COLLECTION,
  tombstones: REQUEST_TOMBSTONES_COLLECTION,
  parties: { sender: 'requesterId', receiver: 'ownerId' },
  unique: { fields: ['postId', 'requesterId'], index: 'one_request_per_post' },
}
