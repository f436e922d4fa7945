import { BadRequestError } from '@marketplace/service-kit'

export const RATING_COMMENT_MAX = 500

/** What the ratings routes answer, word for word (the web app shows these messages). */
export const RatingMessages = {
  stars: 'Please choose between 1 and 5 stars',
  commentText: 'The comment must be text',
  commentTooLong: `Your comment can be at most ${RATING_COMMENT_MAX} characters`,
  notAccepted: 'You can rate a worker once their request is accepted',
  editWindowOver: 'Ratings can only be changed within 14 days',
} as const

export interface RatingInput {
  stars: number
  comment: string
}

/** PUT /api/people/ratings/{requestId} {stars, comment}: whole stars 1 to 5, a short comment. */
export function readRating(body: unknown): RatingInput {
  const { stars, comment } = (body ?? {}) as { stars?: unknown; comment?: unknown }
  if (typeof stars !== 'number' || !Number.isInteger(stars) || stars < 1 || stars > 5) {
    throw new BadRequestError(RatingMessages.stars, 'INVALID_STARS')
  }
  if (comment !== undefined && comment !== null && typeof comment !== 'string') {
    throw new BadRequestError(RatingMessages.commentText, 'INVALID_COMMENT')
  }
  const text = (comment ?? '').trim()
  // Characters as people count them: an emoji is one, not two UTF-16 units.
  if ([...text].length > RATING_COMMENT_MAX) {
    throw new BadRequestError(RatingMessages.commentTooLong, 'COMMENT_TOO_LONG')
  }
  return { stars, comment: text }
}
