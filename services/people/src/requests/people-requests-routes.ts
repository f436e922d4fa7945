import {
  NoContent,
  PeopleRequestDecisionBodySchema,
  PeopleRequestParamsSchema,
  PeopleRequestSendBodySchema,
  ReceivedPeopleRequestListSchema,
  ReceivedPeopleRequestSchema,
  SECURED,
  SentPeopleRequestListSchema,
  SentPeopleRequestSchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { callerOf } from '@marketplace/service-kit'
import { exactTypesKeepingUnknownFields as exactTypes } from '@marketplace/service-kit'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import type { ServiceApp } from '@marketplace/service-kit'
import { isLeaving, receivedView, sentView } from './people-request-views'
import type { PeopleRequestsRepository } from './people-requests-repository'
import type { PeopleRequestsService } from './people-requests-service'

const tags = ['people']

/**
 * Requests to people. Every route needs a token; the lists are the caller's own, and a
 * request someone else sent or received answers 404, as if it did not exist.
 */
export async function peopleRequestsRoutes(
  app: ServiceApp,
  deps: {
    service: PeopleRequestsService
    requests: PeopleRequestsRepository
    profiles: ProfilesRepository
  },
) {
  app.addHook('preHandler', app.authenticate)
  const context = (request: { id: string }, callerId: string) => ({
    callerId,
    requestId: request.id,
  })

  app.post(
    '/api/people/requests',
    {
      schema: {
        tags,
        summary: 'Ask a worker to do one of one’s own posts',
        description:
          'The post must be the caller’s and accept requests (404, 409); the person must be a worker other than the caller (400), neither having blocked the other (403); once per post and person (409).',
        security: SECURED,
        body: PeopleRequestSendBodySchema,
        response: {
          201: SentPeopleRequestSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
      validatorCompiler: exactTypes,
    },
    async (request, reply) => {
      const caller = callerOf(request)
      const created = await deps.service.send(request.body, context(request, caller.userId))
      const names = await deps.profiles.findByIds([created.workerId])
      return reply.code(201).send(sentView(created, names))
    },
  )

  app.get(
    '/api/people/requests/sent',
    {
      schema: {
        tags,
        summary: 'The requests the caller sent to workers, newest first',
        description: 'Requests to someone in an account deletion’s grace period are left out.',
        security: SECURED,
        response: { 200: SentPeopleRequestListSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const caller = callerOf(request)
      const requests = await deps.requests.sent(caller.userId)
      const names = await deps.profiles.findByIds(requests.map((r) => r.workerId))
      return requests.filter((r) => !isLeaving(names, r.workerId)).map((r) => sentView(r, names))
    },
  )

  app.get(
    '/api/people/requests/received',
    {
      schema: {
        tags,
        summary: 'The requests the caller received as a worker, newest first',
        description: 'Requests from someone in an account deletion’s grace period are left out.',
        security: SECURED,
        response: { 200: ReceivedPeopleRequestListSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const caller = callerOf(request)
      const requests = await deps.requests.received(caller.userId)
      const names = await deps.profiles.findByIds(requests.map((r) => r.ownerId))
      return requests.filter((r) => !isLeaving(names, r.ownerId)).map((r) => receivedView(r, names))
    },
  )

  app.patch(
    '/api/people/requests/:requestId',
    {
      schema: {
        tags,
        summary: 'Accept or decline a request one received',
        description: 'Only a pending request can be answered (409); decided ones can be deleted.',
        security: SECURED,
        params: PeopleRequestParamsSchema,
        body: PeopleRequestDecisionBodySchema,
        response: {
          200: ReceivedPeopleRequestSchema,
          ...errorResponses(400, 401, 404, 409),
        },
      },
      validatorCompiler: exactTypes,
    },
    async (request) => {
      const caller = callerOf(request)
      const saved = await deps.service.decide(
        request.params.requestId,
        request.body,
        context(request, caller.userId),
      )
      const names = await deps.profiles.findByIds([saved.ownerId])
      return receivedView(saved, names)
    },
  )

  app.delete(
    '/api/people/requests/:requestId',
    {
      schema: {
        tags,
        summary: 'Withdraw a request one sent',
        security: SECURED,
        params: PeopleRequestParamsSchema,
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request)
      await deps.service.withdraw(request.params.requestId, context(request, caller.userId))
      return reply.code(204).send(null)
    },
  )

  app.delete(
    '/api/people/requests/received/:requestId',
    {
      schema: {
        tags,
        summary: 'Delete a request one received',
        security: SECURED,
        params: PeopleRequestParamsSchema,
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request)
      await deps.service.deleteReceived(request.params.requestId, context(request, caller.userId))
      return reply.code(204).send(null)
    },
  )
}
