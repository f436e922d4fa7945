import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { LooseBody, callerOf } from '@marketplace/service-kit'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import type { PeopleRequestsRepository } from '../requests/people-requests-repository'
import type { PeopleRequestsService } from '../requests/people-requests-service'
import { receivedView, sentView } from '../requests/people-request-views'

const RequestParams = Type.Object({ requestId: Type.String({ maxLength: 64 }) })

/**
 * Requests to people. Every route needs a token; the lists are the caller's own, and a
 * request someone else sent or received answers 404, as if it did not exist.
 */
export async function peopleRequestsRoutes(
  app: FastifyInstance,
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

  app.post('/api/people/requests', { schema: { body: LooseBody } }, async (request, reply) => {
    const caller = callerOf(request)
    const created = await deps.service.send(request.body, context(request, caller.userId))
    const names = await deps.profiles.findByIds([created.workerId])
    return reply.code(201).send(sentView(created, names))
  })

  app.get('/api/people/requests/sent', async (request) => {
    const caller = callerOf(request)
    const requests = await deps.requests.sent(caller.userId)
    const names = await deps.profiles.findByIds(requests.map((r) => r.workerId))
    return requests.map((r) => sentView(r, names))
  })

  app.get('/api/people/requests/received', async (request) => {
    const caller = callerOf(request)
    const requests = await deps.requests.received(caller.userId)
    const names = await deps.profiles.findByIds(requests.map((r) => r.ownerId))
    return requests.map((r) => receivedView(r, names))
  })

  app.patch(
    '/api/people/requests/:requestId',
    { schema: { params: RequestParams, body: LooseBody } },
    async (request) => {
      const caller = callerOf(request)
      const { requestId } = request.params as { requestId: string }
      const saved = await deps.service.decide(
        requestId,
        request.body,
        context(request, caller.userId),
      )
      const names = await deps.profiles.findByIds([saved.ownerId])
      return receivedView(saved, names)
    },
  )

  app.delete(
    '/api/people/requests/:requestId',
    { schema: { params: RequestParams } },
    async (request, reply) => {
      const caller = callerOf(request)
      const { requestId } = request.params as { requestId: string }
      await deps.service.withdraw(requestId, context(request, caller.userId))
      return reply.code(204).send()
    },
  )

  app.delete(
    '/api/people/requests/received/:requestId',
    { schema: { params: RequestParams } },
    async (request, reply) => {
      const caller = callerOf(request)
      const { requestId } = request.params as { requestId: string }
      await deps.service.deleteReceived(requestId, context(request, caller.userId))
      return reply.code(204).send()
    },
  )
}
