import { Messages } from '@marketplace/contracts/validation'
import {
  UNDOABLE_DECISIONS,
  createRequestLifecycle,
  isObjectIdHex,
  requestEvent,
  type ActorContext,
  type CallerContext,
} from '@marketplace/request-lifecycle'
import { BadRequestError, ForbiddenError, NotFoundError } from '@marketplace/service-kit'
import { isLive, isShownToOthers } from '../posts/post-document'
import type { PostsRepository } from '../posts/posts-repository'
import { displayName, type UserCard, type UserDirectory } from '../users/user-directory'
import type { JobRequestDocument } from './request-document'
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
      created: requestEvent('job-request.created', eventData),
      decided: requestEvent('job-request.decided', (request) => eventData(request)),
      deleted: requestEvent('job-request.deleted', async (request, by) => ({
        ...(await eventData(request)),
        deletedBy: by === 'sender' ? 'requester' : 'owner',
      })),
    },
    now,
  })

  async function send(postId: unknown, context: CallerContext): Promise<JobRequestDocument> {
    if (!isObjectIdHex(postId)) {
      throw new BadRequestError(Messages.requests.invalid, 'INVALID_REQUEST')
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
    if (!isLive(post, now()))
      throw new BadRequestError(Messages.requests.postNotAccepting, 'POST_NOT_LIVE')
    // One read of the caller's card: the worker check here, the name in the event.
    const requester = (await deps.users.find([context.callerId])).get(context.callerId)
    if (requester?.isWorker !== true) {
      throw new ForbiddenError(Messages.requests.workerProfileRequired, 'WORKER_PROFILE_REQUIRED')
    }
    return lifecycle.create(
      { postId, ownerId: post.userID, requesterId: context.callerId, postTitle: post.title },
      context,
      requester,
    )
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

  return { send, decide, remove, discardAllOfPost, deleteAllOf }
}

export type RequestsService = ReturnType<typeof createRequestsService>
