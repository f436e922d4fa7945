import type { RequestStatus } from '@marketplace/contracts/marketplace'
import type { OutboxFields } from '@marketplace/service-kit'

/** Requests on posts: one document per (post, requester). */
export const JOB_REQUESTS_COLLECTION = 'job_requests'
/** A deleted request's event waits here for the relay: the request itself is gone. */
export const REQUEST_TOMBSTONES_COLLECTION = 'job_request_tombstones'

export interface JobRequestDocument extends OutboxFields {
  _id: string
  postId: string
  /** The post's owner, who decides. */
  ownerId: string
  requesterId: string
  status: RequestStatus
  /** The post's title when the request was made: events need it without a lookup. */
  postTitle: string
  createdAt: Date
  updatedAt: Date
}
