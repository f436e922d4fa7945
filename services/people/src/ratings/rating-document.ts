export const RATINGS_COLLECTION = 'worker_ratings'

/** How long after it was first given a rating can still be changed. */
export const RATING_EDIT_WINDOW_MS = 14 * 24 * 60 * 60 * 1000

/**
 * A change of a rating not yet counted in the worker's profile (ratings-service.ts): what
 * to add to the profile's sum and count, and under which token, so the profile counts it
 * exactly once however often it is applied.
 */
export interface PendingRatingChange {
  token: string
  sum: number
  count: number
  /** The stars the profile counts once applied; null when the rating is being removed. */
  stars: number | null
  /** The stars counted before (null: none), for worker.rated. */
  previousStars: number | null
  /** When the change was written; the sweep only finishes changes older than a minute. */
  since: Date
}

/**
 * A post owner's rating of the worker of an accepted request on their post: one per request
 * (unique index on requestId), changeable for 14 days after `createdAt`.
 */
export interface RatingDocument {
  _id: string
  requestId: string
  postId: string
  postTitle: string
  /** The requester of the request: the one rated. */
  workerId: string
  /** The post's owner: the one who rates. */
  ownerId: string
  stars: number
  /** Trimmed; '' when none. */
  comment: string
  createdAt: Date
  updatedAt: Date
  /** The stars the worker's profile counts for this rating; null (or missing) when none. */
  countedStars?: number | null
  pending?: PendingRatingChange
}

export function editableUntil(rating: Pick<RatingDocument, 'createdAt'>): Date {
  return new Date(rating.createdAt.getTime() + RATING_EDIT_WINDOW_MS)
}
