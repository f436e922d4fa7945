import { Messages } from '@marketplace/contracts/validation'
import {
  FINAL_DECISIONS,
  createRequestLifecycle,
  isObjectIdHex,
  requestEvent,
  type CallerContext,
} from '@marketplace/request-lifecycle'
import { BadRequestError, ForbiddenError, NotFoundError } from '@marketplace/service-kit'
import { acceptsRequests, type KnownPosts } from '../posts/known-posts'
import { fullName } from '../profiles/profile-document'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import type { PeopleRequestDocument } from './people-request-document'
import type { PeopleRequestsRepository } from './people-requests-repository'

/**
 * Requests to people: a post owner asks a worker to do one of their
 * online posts; the worker accepts or declines once (decided requests can then only be
 * deleted); the owner withdraws a sent request and the worker deletes a received one at any
 * status. The lifecycle (@marketplace/request-lifecycle) keeps those steps; this service
 * checks the post and the person before a request is sent. Acceptance lets the worker see the
 * post's hidden fields: the jobs service grants it from people-request.decided.
 */
export function createPeopleRequestsService(deps: {
  requests: PeopleRequestsRepository
  profiles: ProfilesRepository
  posts: KnownPosts
  /** Whether either of two users blocked the other (docs/blocking.md). */
  isBlockedBetween?: (userId: string, otherId: string) => Promise<boolean>
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  async function eventData(request: PeopleRequestDocument) {
    const names = await deps.profiles.findByIds([request.ownerId, request.workerId])
    const nameOf = (id: string) => {
      const profile = names.get(id)
      return profile ? fullName(profile) : 'Unknown User'
    }
    return {
      requestId: request._id,
      postId: request.postId,
      postTitle: request.postTitle,
      ownerId: request.ownerId,
      ownerName: nameOf(request.ownerId),
      workerId: request.workerId,
      workerName: nameOf(request.workerId),
      status: request.status,
    }
  }

  const lifecycle = createRequestLifecycle<PeopleRequestDocument>({
    store: deps.requests,
    decisions: FINAL_DECISIONS,
    duplicate: { message: Messages.requests.alreadyRequestedPerson, code: 'ALREADY_REQUESTED' },
    events: {
      created: requestEvent('people-request.created', eventData),
      decided: requestEvent('people-request.decided', eventData),
      deleted: requestEvent('people-request.deleted', eventData),
    },
    now,
  })

  async function send(body: unknown, context: CallerContext): Promise<PeopleRequestDocument> {
    const { postID, requestedID } = (body ?? {}) as { postID?: unknown; requestedID?: unknown }
    if (!isObjectIdHex(postID) || typeof requestedID !== 'string') {
      throw new BadRequestError(Messages.requests.invalid, 'INVALID_REQUEST')
    }
    if (requestedID === context.callerId) {
      throw new BadRequestError(Messages.requests.cannotRequestYourself, 'OWN_PROFILE')
    }
    const post = await deps.posts.findById(postID)
    if (!post || post.deleted || post.ownerId !== context.callerId) {
      throw new NotFoundError(Messages.requests.notYourPost, 'POST_NOT_FOUND')
    }
    // Not a duplicate: a 409 would read as "already requested" to a client, and the
    // post may take requests again once it is back online.
    if (!acceptsRequests(post, now())) {
      throw new BadRequestError(Messages.requests.postNotAccepting, 'POST_NOT_LIVE')
    }
    const worker = await deps.profiles.findById(requestedID)
    if (!worker || worker.deletion) throw new NotFoundError('User not found', 'USER_NOT_FOUND')
    if (!worker.isWorker || !worker.worker) {
      throw new BadRequestError(Messages.requests.personNotWorker, 'NOT_A_WORKER')
    }
    // Either side blocked the other: the same words both ways, so nobody learns who did.
    if (await deps.isBlockedBetween?.(context.callerId, requestedID)) {
      throw new ForbiddenError(Messages.blocks.requestRefused, 'BLOCKED')
    }
    return lifecycle.create(
      { postId: postID, postTitle: post.title, ownerId: context.callerId, workerId: requestedID },
      context,
    )
  }

  return {
    send,
    /** The requested worker answers a pending request, once. */
    decide: (requestId: string, body: unknown, context: CallerContext) =>
      lifecycle.decide(requestId, (body as { status?: unknown } | null)?.status, context),
    /** DELETE /api/people/requests/{id}: the sender withdraws. */
    async withdraw(requestId: string, context: CallerContext): Promise<void> {
      await lifecycle.remove(requestId, context, ['sender'])
    },
    /** DELETE /api/people/requests/received/{id}: the requested worker removes it. */
    async deleteReceived(requestId: string, context: CallerContext): Promise<void> {
      await lifecycle.remove(requestId, context, ['receiver'])
    },
  }
}

export type PeopleRequestsService = ReturnType<typeof createPeopleRequestsService>
