import type { DomainEvent } from '@marketplace/contracts/events'
import { OFFER_MESSAGES, isCounterAnswer } from '@marketplace/contracts/marketplace'
import { Messages, checkOffer, type OfferInput } from '@marketplace/contracts/validation'
import {
  UNDOABLE_DECISIONS,
  createRequestLifecycle,
  isObjectIdHex,
  requestEvent,
  type ActorContext,
  type CallerContext,
} from '@marketplace/request-lifecycle'
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  newEvent,
} from '@marketplace/service-kit'
import { isLive, isShownToOthers } from '../posts/post-document'
import type { PostsRepository } from '../posts/posts-repository'
import { displayName, type UserCard, type UserDirectory } from '../users/user-directory'
import { agreedOf, counterTerms, offerView, storedOffer } from './offer-terms'
import type { JobRequestDocument, StoredOffer } from './request-document'
import type { RequestsRepository } from './requests-repository'

/**
 * Requests on posts: a worker asks to do a post; its owner accepts or
 * rejects, and may undo back to pending; the requester withdraws at any status and the owner
 * may delete a request on their post. The lifecycle (@marketplace/request-lifecycle) keeps
 * those steps; this service checks the post and the requester before one. What acceptance
 * gives, the requester's view of the post's hidden location and contact, is read from the
 * request itself (access/post-readers.ts): a decision is one write, and its access with it.
 */
export function createRequestsService(deps: {
  requests: RequestsRepository
  posts: PostsRepository
  users: UserDirectory
  /** A request's acceptance changed: this process's feed reads the post's access again. */
  onAccessChanged(postId: string): void
  /** Whether either of two users blocked the other (docs/blocking.md). */
  isBlockedBetween?(userId: string, otherId: string): Promise<boolean>
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  async function eventData(request: JobRequestDocument, requester?: UserCard) {
    const card =
      requester ?? (await deps.users.find([request.requesterId])).get(request.requesterId)
    return {
      requestId: request._id,
      postId: request.postId,
      postTitle: request.postTitle,
      ownerId: request.ownerId,
      requesterId: request.requesterId,
      requesterName: displayName(card),
      status: request.status,
    }
  }

  // The requester's card, read by `send` for its worker check, names them in the created event.
  const lifecycle = createRequestLifecycle<JobRequestDocument, UserCard>({
    store: deps.requests,
    decisions: UNDOABLE_DECISIONS,
    duplicate: { message: Messages.requests.alreadyRequestedPost, code: 'ALREADY_REQUESTED' },
    events: {
      created: requestEvent('job-request.created', async (request, requester) => ({
        ...(await eventData(request, requester)),
        ...(request.offer ? { offer: offerView(request.offer) } : {}),
      })),
      decided: requestEvent('job-request.decided', async (request) => {
        const agreed = agreedOf(request)
        return { ...(await eventData(request)), ...(agreed ? { agreed } : {}) }
      }),
      deleted: requestEvent('job-request.deleted', async (request, by) => ({
        ...(await eventData(request)),
        deletedBy: by === 'sender' ? 'requester' : 'owner',
      })),
    },
    now,
  })

  async function send(
    postId: unknown,
    context: CallerContext,
    offerInput?: OfferInput,
  ): Promise<JobRequestDocument> {
    if (!isObjectIdHex(postId)) {
      throw new BadRequestError(Messages.requests.invalid, 'INVALID_REQUEST')
    }
    // A bad offer is refused before anything is read: the message says what to fix.
    let offer: StoredOffer | null = null
    if (offerInput !== undefined) {
      const checked = checkOffer(offerInput)
      if ('error' in checked) throw new BadRequestError(checked.error, 'INVALID_OFFER')
      offer = storedOffer(checked.offer)
    }
    const post = await deps.posts.findById(postId)
    // A post whose owner is leaving (deletion grace period) is answered as if it did not exist.
    if (!post || !isShownToOthers(post)) throw new NotFoundError('Post not found', 'POST_NOT_FOUND')
    if (post.userID === context.callerId)
      throw new BadRequestError(Messages.requests.ownPost, 'OWN_POST')
    // Either side blocked the other: the same words both ways, so nobody learns who did.
    if (await deps.isBlockedBetween?.(context.callerId, post.userID))
      throw new ForbiddenError(Messages.blocks.requestRefused, 'BLOCKED')
    // Not a duplicate: a 409 would read as "already requested" to a client, and the
    // post may take requests again once it is back online.
    if (post.filledAt) throw new BadRequestError(Messages.requests.postFilled, 'POST_FILLED')
    if (!isLive(post, now()))
      throw new BadRequestError(Messages.requests.postNotAccepting, 'POST_NOT_LIVE')
    // One read of the caller's card: the worker check here, the name in the event.
    const requester = (await deps.users.find([context.callerId])).get(context.callerId)
    if (requester?.isWorker !== true) {
      throw new ForbiddenError(Messages.requests.workerProfileRequired, 'WORKER_PROFILE_REQUIRED')
    }
    return lifecycle.create(
      {
        postId,
        ownerId: post.userID,
        requesterId: context.callerId,
        postTitle: post.title,
        // Stored only when given: a request without an offer is the same document as before.
        ...(offer ? { offer } : {}),
      },
      context,
      requester,
    )
  }

  /** The request, when the caller is the side named; 404 for anyone else and any bad id. */
  async function findAs(requestId: string, callerId: string, side: 'ownerId' | 'requesterId') {
    const request = isObjectIdHex(requestId) ? await deps.requests.findById(requestId) : null
    if (!request || request[side] !== callerId) {
      throw new NotFoundError(Messages.requests.notFound, 'REQUEST_NOT_FOUND')
    }
    return request
  }

  /**
   * Writes a change of terms judged on the request as last read: `change` refuses (throws) or
   * answers the new terms and their event. A write that lost to another one is judged again.
   */
  async function changeTerms(
    request: JobRequestDocument,
    change: (
      current: JobRequestDocument,
    ) => Promise<{ next: JobRequestDocument; event: DomainEvent }>,
  ): Promise<JobRequestDocument> {
    let current = request
    for (;;) {
      const { next, event } = await change(current)
      const saved = await deps.requests.saveTerms(
        current,
        { offer: next.offer ?? null, counter: next.counter ?? null, updatedAt: next.updatedAt },
        [event],
      )
      if (saved) return saved
      const latest = await deps.requests.findById(current._id)
      if (!latest) throw new NotFoundError(Messages.requests.notFound, 'REQUEST_NOT_FOUND')
      current = latest
    }
  }

  const eventOf = async <N extends 'job-request.countered' | 'job-request.counter-answered'>(
    type: N,
    request: JobRequestDocument,
    context: CallerContext,
    extra: N extends 'job-request.countered'
      ? Record<string, never>
      : { answer: 'accepted' | 'declined' },
  ) =>
    newEvent(type, {
      aggregateId: request._id,
      actorId: context.callerId,
      requestId: context.requestId,
      // The counter is on the request by then.
      data: {
        ...(await eventData(request)),
        counter: counterTerms(request.counter!),
        ...extra,
      } as never,
    })

  /**
   * The post's owner makes their one counter-offer on a pending request (with or without an
   * offer of the worker's); the unit defaults to the offer's.
   */
  async function counter(
    requestId: string,
    body: OfferInput,
    context: CallerContext,
  ): Promise<JobRequestDocument> {
    const request = await findAs(requestId, context.callerId, 'ownerId')
    return changeTerms(request, async (current) => {
      if (current.counter) throw new ConflictError(OFFER_MESSAGES.counterTwice, 'COUNTER_MADE')
      if (current.status !== 'pending') {
        throw new ConflictError(OFFER_MESSAGES.counterNotPending, 'REQUEST_ANSWERED')
      }
      const checked = checkOffer(
        { amount: body.amount, unit: body.unit, note: body.note },
        current.offer?.unit ?? 'fixed',
      )
      if ('error' in checked) throw new BadRequestError(checked.error, 'INVALID_OFFER')
      const at = now()
      const next: JobRequestDocument = {
        ...current,
        counter: {
          cents: checked.offer.cents,
          unit: checked.offer.unit,
          note: checked.offer.note,
          state: 'pending',
          createdAt: at,
          answeredAt: null,
        },
        updatedAt: at,
      }
      return { next, event: await eventOf('job-request.countered', next, context, {}) }
    })
  }

  /**
   * The worker accepts the counter-offer (it becomes the request's offer, their proposed
   * time kept) or declines it (their own offer stands). Only while the request is pending.
   */
  async function answerCounter(
    requestId: string,
    answer: unknown,
    context: CallerContext,
  ): Promise<JobRequestDocument> {
    if (!isCounterAnswer(answer)) {
      throw new BadRequestError(OFFER_MESSAGES.counterAnswerInvalid, 'INVALID_ANSWER')
    }
    const request = await findAs(requestId, context.callerId, 'requesterId')
    return changeTerms(request, async (current) => {
      const waiting = current.counter
      if (current.status !== 'pending' || waiting?.state !== 'pending') {
        throw new ConflictError(OFFER_MESSAGES.noCounterWaiting, 'NO_COUNTER_WAITING')
      }
      const at = now()
      const next: JobRequestDocument = {
        ...current,
        counter: { ...waiting, state: answer, answeredAt: at },
        offer:
          answer === 'accepted'
            ? {
                cents: waiting.cents,
                unit: waiting.unit,
                note: waiting.note,
                proposedTime: current.offer?.proposedTime ?? '',
              }
            : (current.offer ?? null),
        updatedAt: at,
      }
      return {
        next,
        event: await eventOf('job-request.counter-answered', next, context, { answer }),
      }
    })
  }

  /** The post's owner decides; the saved status alone says who sees the hidden fields. */
  async function decide(
    requestId: string,
    status: unknown,
    context: CallerContext,
  ): Promise<JobRequestDocument> {
    const saved = await lifecycle.decide(requestId, status, context)
    deps.onAccessChanged(saved.postId)
    return saved
  }

  /** The requester withdraws, or the post's owner deletes; an acceptance goes with it. */
  async function remove(requestId: string, context: CallerContext): Promise<void> {
    const removed = await lifecycle.remove(requestId, context, ['sender', 'receiver'])
    if (removed.status === 'accepted') deps.onAccessChanged(removed.postId)
  }

  /**
   * The post is being deleted: each of its requests goes with its own job-request.deleted
   * (deleted by the owner, whose post it was), so every consumer takes back what the request
   * gave, above all the owner's view of the requester's hidden contacts (people service).
   * The post's grants go with the post (posts-service.ts).
   */
  async function discardAllOfPost(postId: string, context: ActorContext): Promise<void> {
    for (const request of await deps.requests.ofPost(postId)) {
      await lifecycle.discard(request, context, 'receiver')
    }
  }

  /** user.deleted: the user's requests go, each with its event, and acceptances they held with them. */
  async function deleteAllOf(userId: string): Promise<void> {
    const context = { callerId: null }
    for (const request of await deps.requests.sent(userId)) {
      await lifecycle.discard(request, context, 'sender')
      if (request.status === 'accepted') deps.onAccessChanged(request.postId)
    }
    for (const request of await deps.requests.received(userId)) {
      await lifecycle.discard(request, context, 'receiver')
    }
  }

  return { send, decide, remove, discardAllOfPost, deleteAllOf, counter, answerCounter }
}

export type RequestsService = ReturnType<typeof createRequestsService>
