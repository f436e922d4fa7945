import { isRequestStatus, type RequestStatus } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  newEvent,
} from '@marketplace/service-kit'
import type { PostAccess } from '../access/post-access'
import { isLive } from '../posts/post-document'
import type { PostsRepository } from '../posts/posts-repository'
import { displayName, type UserCard, type UserDirectory } from '../users/user-directory'
import type { JobRequestDocument } from './request-document'
import { DuplicateRequestError, type RequestsRepository } from './requests-repository'

interface Context {
  callerId: string
  requestId?: string
}

/**
 * Requests on posts (spec 1 §4, spec 2 §4): a worker asks to do a post; its owner accepts or
 * rejects, and may undo back to pending; the requester withdraws at any status and the owner
 * may delete a request on their post. Acceptance is what lets the requester see the post's
 * hidden location and contact (a grant in post-access.ts).
 */
export function createRequestsService(deps: {
  requests: RequestsRepository
  posts: PostsRepository
  users: UserDirectory
  access: PostAccess
  onAccessChanged(postId: string): void
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  async function eventData(request: JobRequestDocument, known?: { requester?: UserCard }) {
    const requester =
      known?.requester ?? (await deps.users.find([request.requesterId])).get(request.requesterId)
    return {
      requestId: request._id,
      postId: request.postId,
      postTitle: request.postTitle,
      ownerId: request.ownerId,
      requesterId: request.requesterId,
      requesterName: displayName(requester),
      status: request.status,
    }
  }

  /** Grants or takes back the requester's view of the post's hidden fields. */
  async function setAcceptance(request: JobRequestDocument, accepted: boolean): Promise<void> {
    if (accepted) await deps.access.grant(request.postId, request.requesterId, 'request')
    else await deps.access.revoke(request.postId, request.requesterId, 'request')
    deps.onAccessChanged(request.postId)
  }

  async function send(postId: unknown, context: Context): Promise<JobRequestDocument> {
    if (typeof postId !== 'string' || !/^[0-9a-f]{24}$/.test(postId)) {
      throw new BadRequestError(Messages.requests.invalid, 'INVALID_REQUEST')
    }
    const post = await deps.posts.findById(postId)
    if (!post || post.takenDown) throw new NotFoundError('Post not found', 'POST_NOT_FOUND')
    if (post.userID === context.callerId)
      throw new BadRequestError(Messages.requests.ownPost, 'OWN_POST')
    if (!isLive(post, now()))
      throw new ConflictError(Messages.requests.postNotAccepting, 'POST_NOT_LIVE')
    // One read of the caller's card: the worker check here, the name in the event below.
    const requester = (await deps.users.find([context.callerId])).get(context.callerId)
    if (requester?.isWorker !== true) {
      throw new ForbiddenError(Messages.requests.workerProfileRequired, 'WORKER_PROFILE_REQUIRED')
    }
    const at = now()
    const request: JobRequestDocument = {
      _id: deps.requests.newId(),
      postId,
      ownerId: post.userID,
      requesterId: context.callerId,
      status: 'pending',
      postTitle: post.title,
      createdAt: at,
      updatedAt: at,
    }
    const event = newEvent('job-request.created', {
      aggregateId: request._id,
      actorId: context.callerId,
      requestId: context.requestId,
      data: await eventData(request, { requester }),
    })
    try {
      await deps.requests.insert(request, [event])
    } catch (error) {
      if (error instanceof DuplicateRequestError) {
        throw new ConflictError(Messages.requests.alreadyRequestedPost, 'ALREADY_REQUESTED')
      }
      throw error
    }
    return request
  }

  /** A request the caller may act on as `role`, or 404: others never learn it exists. */
  async function requestFor(
    requestId: string,
    callerId: string,
    roles: Array<'owner' | 'requester'>,
  ) {
    const request = /^[0-9a-f]{24}$/.test(requestId)
      ? await deps.requests.findById(requestId)
      : null
    const allowed =
      request &&
      ((roles.includes('owner') && request.ownerId === callerId) ||
        (roles.includes('requester') && request.requesterId === callerId))
    if (!request || !allowed)
      throw new NotFoundError(Messages.requests.notFound, 'REQUEST_NOT_FOUND')
    return request
  }

  async function decide(
    requestId: string,
    status: unknown,
    context: Context,
  ): Promise<JobRequestDocument> {
    if (!isRequestStatus(status))
      throw new BadRequestError(Messages.requests.invalidStatus, 'INVALID_STATUS')
    const request = await requestFor(requestId, context.callerId, ['owner'])
    const next = { ...request, status: status as RequestStatus, updatedAt: now() }
    const event = newEvent('job-request.decided', {
      aggregateId: request._id,
      actorId: context.callerId,
      requestId: context.requestId,
      data: await eventData(next),
    })
    const saved = await deps.requests.update(
      request._id,
      { $set: { status: next.status, updatedAt: next.updatedAt } },
      [event],
    )
    if (!saved) throw new NotFoundError(Messages.requests.notFound, 'REQUEST_NOT_FOUND')
    await setAcceptance(saved, saved.status === 'accepted')
    return saved
  }

  async function remove(requestId: string, context: Context): Promise<void> {
    const request = await requestFor(requestId, context.callerId, ['owner', 'requester'])
    const event = newEvent('job-request.deleted', {
      aggregateId: request._id,
      actorId: context.callerId,
      requestId: context.requestId,
      data: {
        ...(await eventData(request)),
        deletedBy: request.requesterId === context.callerId ? 'requester' : 'owner',
      },
    })
    await deps.requests.delete(request._id, [event])
    if (request.status === 'accepted') await setAcceptance(request, false)
  }

  /** user.deleted: the user's requests go, and acceptances they held are taken back. */
  async function deleteAllOf(userId: string): Promise<void> {
    for (const request of await deps.requests.deleteOfUser(userId)) {
      if (request.status === 'accepted') await setAcceptance(request, false)
    }
  }

  return { send, decide, remove, deleteAllOf }
}

export type RequestsService = ReturnType<typeof createRequestsService>
