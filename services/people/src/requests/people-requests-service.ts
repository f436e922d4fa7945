import type { DomainEvent } from '@marketplace/contracts/events'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { BadRequestError, ConflictError, NotFoundError, newEvent } from '@marketplace/service-kit'
import { acceptsRequests, type KnownPosts } from '../posts/known-posts'
import { fullName } from '../profiles/profile-document'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import type { PeopleRequestDocument } from './people-request-document'
import {
  DuplicatePeopleRequestError,
  type PeopleRequestsRepository,
} from './people-requests-repository'

interface Context {
  callerId: string
  requestId?: string
}

const OBJECT_ID = /^[0-9a-f]{24}$/

/**
 * Requests to people (spec 1 §4, spec 2 §4): a post owner asks a worker to do one of their
 * online posts; the worker accepts or declines once (decided requests can then only be
 * deleted); the owner withdraws a sent request and the worker deletes a received one at any
 * status. Acceptance lets the worker see the post's hidden fields (the jobs service grants it
 * from people-request.decided).
 */
export function createPeopleRequestsService(deps: {
  requests: PeopleRequestsRepository
  profiles: ProfilesRepository
  posts: KnownPosts
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

  async function send(body: unknown, context: Context): Promise<PeopleRequestDocument> {
    const { postID, requestedID } = (body ?? {}) as { postID?: unknown; requestedID?: unknown }
    if (typeof postID !== 'string' || typeof requestedID !== 'string' || !OBJECT_ID.test(postID)) {
      throw new BadRequestError(Messages.requests.invalid, 'INVALID_REQUEST')
    }
    if (requestedID === context.callerId) {
      throw new BadRequestError(Messages.requests.cannotRequestYourself, 'OWN_PROFILE')
    }
    const post = await deps.posts.findById(postID)
    if (!post || post.deleted || post.ownerId !== context.callerId) {
      throw new NotFoundError(Messages.requests.notYourPost, 'POST_NOT_FOUND')
    }
    if (!acceptsRequests(post, now())) {
      throw new ConflictError(Messages.requests.postNotAccepting, 'POST_NOT_LIVE')
    }
    const worker = await deps.profiles.findById(requestedID)
    if (!worker || worker.deletion) throw new NotFoundError('User not found', 'USER_NOT_FOUND')
    if (!worker.isWorker || !worker.worker) {
      throw new BadRequestError(Messages.requests.personNotWorker, 'NOT_A_WORKER')
    }
    const at = now()
    const request: PeopleRequestDocument = {
      _id: deps.requests.newId(),
      postId: postID,
      postTitle: post.title,
      ownerId: context.callerId,
      workerId: requestedID,
      status: 'pending',
      createdAt: at,
      updatedAt: at,
    }
    const event = newEvent('people-request.created', {
      aggregateId: request._id,
      actorId: context.callerId,
      requestId: context.requestId,
      data: await eventData(request),
    })
    try {
      await deps.requests.insert(request, [event])
    } catch (error) {
      if (error instanceof DuplicatePeopleRequestError) {
        throw new ConflictError(Messages.requests.alreadyRequestedPerson, 'ALREADY_REQUESTED')
      }
      throw error
    }
    return request
  }

  /** The request when the caller is its `side`, or 404: others never learn it exists. */
  async function requestAs(
    requestId: string,
    callerId: string,
    side: 'ownerId' | 'workerId',
  ): Promise<PeopleRequestDocument> {
    const request = OBJECT_ID.test(requestId) ? await deps.requests.findById(requestId) : null
    if (!request || request[side] !== callerId) {
      throw new NotFoundError(Messages.requests.notFound, 'REQUEST_NOT_FOUND')
    }
    return request
  }

  /** The requested worker answers a pending request, once. */
  async function decide(
    requestId: string,
    body: unknown,
    context: Context,
  ): Promise<PeopleRequestDocument> {
    const status = (body as { status?: unknown } | null)?.status
    if (status !== 'accepted' && status !== 'rejected') {
      throw new BadRequestError(Messages.requests.decisionStatus, 'INVALID_STATUS')
    }
    const request = await requestAs(requestId, context.callerId, 'workerId')
    if (request.status !== 'pending') {
      throw new ConflictError(Messages.requests.alreadyDecided, 'ALREADY_DECIDED')
    }
    const next = { ...request, status: status as RequestStatus, updatedAt: now() }
    const event = newEvent('people-request.decided', {
      aggregateId: request._id,
      actorId: context.callerId,
      requestId: context.requestId,
      data: await eventData(next),
    })
    // Guarded on pending: of two parallel answers exactly one lands.
    const saved = await deps.requests.update(
      request._id,
      { $set: { status: next.status, updatedAt: next.updatedAt } },
      [event],
      { status: 'pending' },
    )
    if (!saved) throw new ConflictError(Messages.requests.alreadyDecided, 'ALREADY_DECIDED')
    return saved
  }

  async function remove(
    requestId: string,
    side: 'ownerId' | 'workerId',
    context: Context,
  ): Promise<void> {
    const request = await requestAs(requestId, context.callerId, side)
    const event: DomainEvent = newEvent('people-request.deleted', {
      aggregateId: request._id,
      actorId: context.callerId,
      requestId: context.requestId,
      data: await eventData(request),
    })
    await deps.requests.delete(request._id, [event])
  }

  return {
    send,
    decide,
    /** DELETE /api/people/requests/{id}: the sender withdraws. */
    withdraw: (requestId: string, context: Context) => remove(requestId, 'ownerId', context),
    /** DELETE /api/people/requests/received/{id}: the requested worker removes it. */
    deleteReceived: (requestId: string, context: Context) => remove(requestId, 'workerId', context),
  }
}

export type PeopleRequestsService = ReturnType<typeof createPeopleRequestsService>
