import type { RequestCollection, RequestDocument } from '@marketplace/request-lifecycle'

export const PEOPLE_REQUESTS_COLLECTION = 'people_requests'
/** A deleted request's events wait here for the relay (service-kit tombstones.ts). */
export const PEOPLE_REQUEST_TOMBSTONES_COLLECTION = 'people_request_tombstones'

/** A post owner asked a worker to do one of their posts; the worker decides. */
export interface PeopleRequestDocument extends RequestDocument {
  postId: string
  /** The post's title when the request was sent: lists and notifications show it. */
  postTitle: string
  /** Who sent the request: the post's owner. */
  ownerId: string
  /** Who was asked: a worker, who decides. */
  workerId: string
}

/** The post's owner sends, once per post and person; the worker receives and decides. */
export const PEOPLE_REQUESTS: RequestCollection<PeopleRequestDocument> = {
  name: PEOPLE_REQUESTS_COLLECTION,
  tombstones: PEOPLE_REQUEST_TOMBSTONES_COLLECTION,
  parties: { sender: 'ownerId', receiver: 'workerId' },
  unique: { fields: ['postId', 'workerId'], index: 'one_request_per_post_and_person' },
}
