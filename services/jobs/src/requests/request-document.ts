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
}

/** The requester sends, once per post; the post's owner receives and decides. */
export const JOB_REQUESTS: RequestCollection<JobRequestDocument> = {
  name: JOB_REQUESTS_COLLECTION,
  tombstones: REQUEST_TOMBSTONES_COLLECTION,
  parties: { sender: 'requesterId', receiver: 'ownerId' },
  unique: { fields: ['postId', 'requesterId'], index: 'one_request_per_post' },
}
