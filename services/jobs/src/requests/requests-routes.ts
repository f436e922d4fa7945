import type { FastifyRequest } from 'fastify'
import {
  CounterAnswerBodySchema,
  CounterOfferBodySchema,
  JobRequestTermsSchema,
  JobRequestCreateBodySchema,
  JobRequestCreatedSchema,
  JobRequestDecidedSchema,
  JobRequestDecisionBodySchema,
  JobRequestIdParamsSchema,
  NoContent,
  ReceivedJobRequestListSchema,
  SECURED,
  SentJobRequestListSchema,
  UserIdParamsSchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { assertSelf, callerOf } from '@marketplace/service-kit'
import type { PostReaders } from '../access/post-readers'
import type { PostsRepository } from '../posts/posts-repository'
import type { ServiceApp } from '@marketplace/service-kit'
import type { UserDirectory } from '../users/user-directory'
import type { RequestsRepository } from './requests-repository'
import type { RequestsService } from './requests-service'
import {
  receivedRequestsView,
  requestCreatedView,
  requestDecidedView,
  requestTermsView,
  sentRequestsView,
} from './request-views'
import type { WorkerStanding } from './worker-standing'

const tags = ['jobs']

const contextOf = (request: FastifyRequest) => ({
  callerId: callerOf(request).userId,
  requestId: request.id,
})

/** Requests on posts; every route needs a token, and every id is checked against the caller. */
export async function requestsRoutes(
  app: ServiceApp,
  deps: {
    service: RequestsService
    requests: RequestsRepository
    posts: PostsRepository
    users: UserDirectory
    readers: PostReaders
    standing?: WorkerStanding
    /** The people a user blocked or was blocked by (docs/blocking.md). */
    hiddenFrom?: (userId: string) => Promise<ReadonlySet<string>>
  },
) {
  app.addHook('preHandler', app.authenticate)

  app.post(
    '/api/jobs/requests',
    {
      schema: {
        tags,
        summary:
          'Ask to do a live post of someone else (workers only, once per post), with an optional offer',
        security: SECURED,
        body: JobRequestCreateBodySchema,
        response: {
          201: JobRequestCreatedSchema,
          ...errorResponses(400, 401, 403, 404, 409, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {}
      const created = await deps.service.send(
        body.postID ?? body.postId,
        contextOf(request),
        body.offer,
      )
      return reply.code(201).send(requestCreatedView(created))
    },
  )

  // A foreign {userId} answers 403 (assertSelf): it names an account, not a looked-up object.
  app.get(
    '/api/jobs/user/:userId/received-requests',
    {
      schema: {
        tags,
        summary: "Requests on the caller's posts, with each requester's card",
        security: SECURED,
        params: UserIdParamsSchema,
        response: { 200: ReceivedJobRequestListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const { userId } = assertSelf(request, request.params.userId)
      const hidden = await deps.hiddenFrom?.(userId)
      return receivedRequestsView(await deps.requests.received(userId), { ...deps, hidden })
    },
  )

  app.get(
    '/api/jobs/user/:userId/sent-requests',
    {
      schema: {
        tags,
        summary: "The caller's requests, with each post as the caller may see it",
        security: SECURED,
        params: UserIdParamsSchema,
        response: { 200: SentJobRequestListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const { userId } = assertSelf(request, request.params.userId)
      const hidden = await deps.hiddenFrom?.(userId)
      return sentRequestsView(await deps.requests.sent(userId), userId, { ...deps, hidden })
    },
  )

  app.patch(
    '/api/jobs/requests/:requestId',
    {
      schema: {
        tags,
        summary: "Accept or reject a request on the caller's post, or undo to pending",
        security: SECURED,
        params: JobRequestIdParamsSchema,
        body: JobRequestDecisionBodySchema,
        response: { 200: JobRequestDecidedSchema, ...errorResponses(400, 401, 404, 413, 415) },
      },
    },
    async (request) => {
      const saved = await deps.service.decide(
        request.params.requestId,
        request.body?.status,
        contextOf(request),
      )
      return requestDecidedView(saved)
    },
  )

  // Offers (docs/post-requests.md): a stranger gets 404, as for a request that does not exist.
  app.post(
    '/api/jobs/requests/:requestId/counter-offer',
    {
      schema: {
        tags,
        summary: "The post owner's one counter-offer on a pending request",
        security: SECURED,
        params: JobRequestIdParamsSchema,
        body: CounterOfferBodySchema,
        response: {
          201: JobRequestTermsSchema,
          ...errorResponses(400, 401, 404, 409, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const saved = await deps.service.counter(
        request.params.requestId,
        request.body ?? {},
        contextOf(request),
      )
      return reply.code(201).send(requestTermsView(saved))
    },
  )

  app.patch(
    '/api/jobs/requests/:requestId/counter-offer',
    {
      schema: {
        tags,
        summary: "The worker accepts or declines the owner's counter-offer",
        security: SECURED,
        params: JobRequestIdParamsSchema,
        body: CounterAnswerBodySchema,
        response: {
          200: JobRequestTermsSchema,
          ...errorResponses(400, 401, 404, 409, 413, 415),
        },
      },
    },
    async (request) => {
      const saved = await deps.service.answerCounter(
        request.params.requestId,
        request.body?.answer,
        contextOf(request),
      )
      return requestTermsView(saved)
    },
  )

  app.delete(
    '/api/jobs/requests/:requestId',
    {
      schema: {
        tags,
        summary: 'Withdraw a request (its requester) or delete one on your post (its owner)',
        security: SECURED,
        params: JobRequestIdParamsSchema,
        response: { 204: NoContent, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await deps.service.remove(request.params.requestId, contextOf(request))
      return reply.code(204).send(null)
    },
  )
}
