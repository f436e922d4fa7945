import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Filter, UpdateFilter } from 'mongodb'
import type { RateableRequest } from '@marketplace/contracts/api'
import type { DomainEvent } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { ConflictError, NotFoundError, newEvent } from '@marketplace/service-kit'
import type { ProfileDocument } from '../profiles/profile-document'
import { toPersonView } from '../profiles/profile-views'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import type { KnownJobRequests } from './known-job-requests'
import {
  RATING_EDIT_WINDOW_MS,
  type PendingRatingChange,
  type RatingDocument,
} from './rating-document'
import { RatingMessages, readRating } from './rating-input'
import { ratingView, type RatedProfile } from './rating-views'
import { DuplicateRatingError, type RatingsRepository } from './ratings-repository'

export interface RatingContext {
  callerId: string
  requestId?: string
}

/** How many tokens of counted changes a profile keeps (see `count` below). */
const TOKENS_KEPT = 100
/** The sweep leaves younger changes to the request that is writing them. */
const SWEEP_MIN_AGE_MS = 60_000

/**
 * Worker ratings (docs/ratings-and-stats.md): the owner of a post rates the worker of an
 * accepted request on it, once per request, changeable for 14 days.
 *
 * The worker's average comes from `ratingSum` and `ratingCount` on their profile, changed by
 * `$inc` in one write with worker.rated in the profile's outbox. The rating and the profile
 * are two documents and there are no transactions, so a change goes in three steps:
 * 1. the rating is written with the change it makes to the profile as `pending` (sum and
 *    count deltas, a fresh token);
 * 2. the profile gets the deltas, the event and the token, guarded by "token not there yet":
 *    however often step 2 runs (a retry, a second request, the sweep), it counts once;
 * 3. `pending` is cleared (guarded by its token) and `countedStars` set.
 * A crash between the steps leaves `pending`, which the next change of that rating or the
 * sweep finishes. The profile keeps the last TOKENS_KEPT tokens: a step 2 could only count
 * twice if it were delayed past that many later changes of the same worker's ratings.
 */
export function createRatingsService(deps: {
  ratings: RatingsRepository
  jobRequests: KnownJobRequests
  profiles: ProfilesRepository
  logger: FastifyBaseLogger
  now?: () => Date
  editWindowMs?: number
}) {
  const now = deps.now ?? (() => new Date())
  const editWindowMs = deps.editWindowMs ?? RATING_EDIT_WINDOW_MS
  const newToken = () => randomBytes(8).toString('hex')

  /** Steps 2 and 3 of a pending change (idempotent); answers the rating after it, or null. */
  async function count(
    rating: RatingDocument,
    context: Partial<RatingContext> = {},
  ): Promise<RatingDocument | null> {
    const change = rating.pending
    if (!change) return rating
    const events: DomainEvent[] =
      change.stars === null
        ? []
        : [
            newEvent('worker.rated', {
              aggregateId: rating.workerId,
              actorId: context.callerId ?? rating.ownerId,
              requestId: context.requestId,
              data: {
                ratingId: rating._id,
                requestId: rating.requestId,
                postId: rating.postId,
                postTitle: rating.postTitle,
                workerId: rating.workerId,
                ownerId: rating.ownerId,
                stars: change.stars,
                previousStars: change.previousStars,
              },
            }),
          ]
    // The profile may be gone (the worker's purge): nothing to count then.
    const counted = (await deps.profiles.update(
      rating.workerId,
      {
        $inc: { ratingSum: change.sum, ratingCount: change.count },
        $push: { ratingTokens: change.token },
      } as UpdateFilter<ProfileDocument>,
      events,
      { ratingTokens: { $ne: change.token } } as Filter<ProfileDocument>,
    )) as RatedProfile | null
    const tokens = counted?.ratingTokens ?? []
    if (counted && tokens.length > TOKENS_KEPT) {
      // FerretDB ignores $push's $slice, so the oldest tokens go in a write of their own.
      await deps.profiles.update(
        rating.workerId,
        { $pullAll: { ratingTokens: tokens.slice(0, tokens.length - TOKENS_KEPT) } } as never,
        [],
      )
    }
    const guard = { 'pending.token': change.token }
    if (change.stars === null) {
      await deps.ratings.deleteIf(rating._id, guard)
      return null
    }
    return deps.ratings.update(
      rating._id,
      { $set: { countedStars: change.stars }, $unset: { pending: '' } },
      guard,
    )
  }

  /** The change that brings the profile from what it counts for `rating` to `stars`. */
  function changeTo(rating: Pick<RatingDocument, 'countedStars'>, stars: number | null) {
    const counted = rating.countedStars ?? null
    const change: PendingRatingChange = {
      token: newToken(),
      sum: (stars ?? 0) - (counted ?? 0),
      count: (stars === null ? 0 : 1) - (counted === null ? 0 : 1),
      stars,
      previousStars: counted,
      since: now(),
    }
    return change
  }

  /** The owner's request to rate, or the 404 / 409 of the rules. */
  async function rateableRequest(requestId: string, callerId: string) {
    const request = await deps.jobRequests.findById(requestId)
    // Someone else's request answers as an unknown one: others never learn it exists.
    if (!request || request.deleted || request.ownerId !== callerId) {
      throw new NotFoundError(Messages.requests.notFound, 'REQUEST_NOT_FOUND')
    }
    if (request.status !== 'accepted') {
      throw new ConflictError(RatingMessages.notAccepted, 'REQUEST_NOT_ACCEPTED')
    }
    return request
  }

  /**
   * PUT /api/people/ratings/{requestId}: the first rating of the request, or a change of it
   * within the edit window. `created` tells which.
   */
  async function rate(
    requestId: string,
    body: unknown,
    context: RatingContext,
  ): Promise<{ rating: RatingDocument; created: boolean }> {
    const input = readRating(body)
    const request = await rateableRequest(requestId, context.callerId)
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const existing = await deps.ratings.findByRequest(requestId)
      if (existing?.pending) {
        // A change not counted yet (in flight, or a crash): count it first.
        await count(existing)
        continue
      }
      const at = now()
      if (existing) {
        if (at.getTime() >= existing.createdAt.getTime() + editWindowMs) {
          throw new ConflictError(RatingMessages.editWindowOver, 'RATING_LOCKED')
        }
        const written = await deps.ratings.update(
          existing._id,
          {
            $set: {
              stars: input.stars,
              comment: input.comment,
              updatedAt: at,
              pending: changeTo(existing, input.stars),
            },
          },
          // Another change landed since the read: read again.
          { updatedAt: existing.updatedAt, pending: { $exists: false } },
        )
        if (!written) continue
        return { rating: (await count(written, context)) ?? written, created: false }
      }
      const worker = await deps.profiles.findById(request.requesterId)
      if (!worker) throw new NotFoundError(Messages.requests.notFound, 'REQUEST_NOT_FOUND')
      const rating: RatingDocument = {
        _id: deps.ratings.newId(),
        requestId,
        postId: request.postId,
        postTitle: request.postTitle,
        workerId: request.requesterId,
        ownerId: request.ownerId,
        stars: input.stars,
        comment: input.comment,
        createdAt: at,
        updatedAt: at,
        countedStars: null,
        pending: changeTo({ countedStars: null }, input.stars),
      }
      try {
        await deps.ratings.insert(rating)
      } catch (error) {
        // A parallel first rating won: this one becomes a change of it.
        if (error instanceof DuplicateRatingError) continue
        throw error
      }
      return { rating: (await count(rating, context)) ?? rating, created: true }
    }
    throw new ConflictError('The rating kept changing, please try again', 'RATING_BUSY')
  }

  /** GET /api/people/ratings/rateable: the caller's accepted requests, newest first. */
  async function rateable(callerId: string): Promise<RateableRequest[]> {
    const requests = await deps.jobRequests.acceptedOf(callerId)
    const ratings = await deps.ratings.findByRequests(requests.map((request) => request._id))
    const workers = await deps.profiles.findByIds(requests.map((request) => request.requesterId))
    const at = now()
    return requests.map((request) => {
      const profile = workers.get(request.requesterId)
      // As the owner sees the worker anywhere else: a take-down hides the worker profile.
      const person = profile ? toPersonView(profile, callerId, at) : null
      const rating = ratings.get(request._id)
      return {
        requestId: request._id,
        status: request.status,
        post: { _id: request.postId, title: request.postTitle },
        worker: {
          _id: request.requesterId,
          name: person?.name || 'Unknown User',
          profilePicture: person?.profilePicture ?? null,
          title: person?.title ?? '',
        },
        rating: rating ? ratingView(rating) : null,
      }
    })
  }

  /** Takes a rating back from the worker's figures and deletes it. */
  async function remove(rating: RatingDocument): Promise<void> {
    let current: RatingDocument | null = rating
    for (let attempt = 0; current && attempt < 5; attempt += 1) {
      if (current.pending) {
        await count(current)
        current = await deps.ratings.findByRequest(rating.requestId)
        continue
      }
      const written = await deps.ratings.update(
        current._id,
        { $set: { pending: changeTo(current, null) } },
        { updatedAt: current.updatedAt, pending: { $exists: false } },
      )
      if (written) {
        await count(written)
        return
      }
      current = await deps.ratings.findByRequest(rating.requestId)
    }
    if (current) throw new Error(`rating ${rating._id} kept changing during its removal`)
  }

  /**
   * user.deleted: the ratings the user gave are taken back from the workers' figures, the
   * ratings the user received go with their profile, and the requests known of them go.
   */
  async function removeUser(userId: string): Promise<void> {
    for (const rating of await deps.ratings.ofOwner(userId)) await remove(rating)
    await deps.ratings.deleteOfWorker(userId)
    await deps.jobRequests.deleteOfUser(userId)
  }

  /** Finishes changes a crash left half done (older than a minute). */
  async function countPending(): Promise<number> {
    let finished = 0
    for (const rating of await deps.ratings.pendingSince(
      new Date(now().getTime() - SWEEP_MIN_AGE_MS),
    )) {
      await count(rating)
      finished += 1
    }
    if (finished > 0) deps.logger.info({ finished }, 'pending rating changes counted')
    return finished
  }

  /** Runs `countPending` every `intervalMs` until stopped; a failed run is retried next time. */
  function schedule(intervalMs: number): () => void {
    let running = false
    const timer = setInterval(() => {
      if (running) return
      running = true
      countPending()
        .catch((error: unknown) => deps.logger.error({ err: error }, 'rating sweep failed'))
        .finally(() => {
          running = false
        })
    }, intervalMs)
    timer.unref()
    return () => clearInterval(timer)
  }

  return { rate, rateable, removeUser, countPending, schedule }
}

export type RatingsService = ReturnType<typeof createRatingsService>
