import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { assertSelf, callerOf } from '@marketplace/service-kit'
import type { PostAccess } from '../access/post-access'
import type { PostsRepository } from '../posts/posts-repository'
import type { RequestsRepository } from '../requests/requests-repository'
import type { RequestsService } from '../requests/requests-service'
import { receivedRequestsView, sentRequestsView } from '../requests/request-views'
import type { UserDirectory } from '../users/user-directory'
import { LooseBody, type LooseBodyValue } from '@marketplace/service-kit'

const UserParams = Type.Object({ userId: Type.String() })
const RequestParams = Type.Object({ requestId: Type.String() })

/** Requests on posts; every route needs a token, and every id is checked against the caller. */
export async function requestsRoutes(
  app: FastifyInstance,
  deps: {
    service: RequestsService
    requests: RequestsRepository
    posts: PostsRepository
    users: UserDirectory
    access: PostAccess
  },
) {
  app.addHook('preHandler', app.authenticate)

  app.post('/api/jobs/requests', { schema: { body: LooseBody } }, async (request, reply) => {
    const caller = callerOf(request)
    const body = (request.body as LooseBodyValue) ?? {}
    const created = await deps.service.send(body.postID ?? body.postId, {
      callerId: caller.userId,
      requestId: request.id,
    })
    return reply.code(201).send({
      _id: created._id,
      postId: created.postId,
      status: created.status,
      createdAt: created.createdAt.toISOString(),
    })
  })

  // A foreign {userId} answers 403 (assertSelf): it names an account, not a looked-up object.
  app.get(
    '/api/jobs/user/:userId/received-requests',
    { schema: { params: UserParams } },
    async (request) => {
      const { userId } = assertSelf(request, (request.params as { userId: string }).userId)
      return receivedRequestsView(await deps.requests.received(userId), deps)
    },
  )

  app.get(
    '/api/jobs/user/:userId/sent-requests',
    { schema: { params: UserParams } },
    async (request) => {
      const { userId } = assertSelf(request, (request.params as { userId: string }).userId)
      return sentRequestsView(await deps.requests.sent(userId), userId, deps)
    },
  )

  app.patch(
    '/api/jobs/requests/:requestId',
    { schema: { params: RequestParams, body: LooseBody } },
    async (request) => {
      const caller = callerOf(request)
      const saved = await deps.service.decide(
        (request.params as { requestId: string }).requestId,
        ((request.body as LooseBodyValue) ?? {}).status,
        { callerId: caller.userId, requestId: request.id },
      )
      return {
        _id: saved._id,
        postId: saved.postId,
        status: saved.status,
        createdAt: saved.createdAt.toISOString(),
        updatedAt: saved.updatedAt.toISOString(),
      }
    },
  )

  app.delete(
    '/api/jobs/requests/:requestId',
    { schema: { params: RequestParams } },
    async (request, reply) => {
      const caller = callerOf(request)
      await deps.service.remove((request.params as { requestId: string }).requestId, {
        callerId: caller.userId,
        requestId: request.id,
      })
      return reply.code(204).send()
    },
  )
}
