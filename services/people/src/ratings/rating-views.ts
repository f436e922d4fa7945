import type { PersonRating, SavedWorkerRating, WorkerRatingView } from '@marketplace/contracts/api'
import type { ProfileDocument } from '../profiles/profile-document'
import { editableUntil, type RatingDocument } from './rating-document'

/** The rating fields a worker's profile document carries besides ProfileDocument's own. */
export interface RatedProfileFields {
  /** Sum of the stars counted (ratings-service.ts keeps it with $inc). */
  ratingSum?: number
  ratingCount?: number
  /** Tokens of the latest changes counted: a change is counted once (ratings-service.ts). */
  ratingTokens?: string[]
}

export type RatedProfile = ProfileDocument & RatedProfileFields

/** `rating` of a person view: the average to one decimal, null before the first rating. */
export function ratingSummary(profile: ProfileDocument | null | undefined): PersonRating {
  const { ratingSum = 0, ratingCount = 0 } = (profile ?? {}) as RatedProfileFields
  return {
    average: ratingCount > 0 ? Math.round((ratingSum / ratingCount) * 10) / 10 : null,
    count: ratingCount,
  }
}

/** A rating as its author sees it. */
export function ratingView(rating: RatingDocument): WorkerRatingView {
  return {
    stars: rating.stars,
    comment: rating.comment,
    createdAt: rating.createdAt.toISOString(),
    updatedAt: rating.updatedAt.toISOString(),
    editableUntil: editableUntil(rating).toISOString(),
  }
}

/** PUT /api/people/ratings/{requestId}: the rating just given or changed. */
export function savedRatingView(rating: RatingDocument): SavedWorkerRating {
  return {
    _id: rating._id,
    requestId: rating.requestId,
    workerId: rating.workerId,
    ...ratingView(rating),
  }
}
