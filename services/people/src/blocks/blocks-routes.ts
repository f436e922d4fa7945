import {
  BlockBodySchema,
  BlockParamsSchema,
  BlockedUserListSchema,
  BlockedUserSchema,
  NoContent,
  SECURED,
  errorResponses,
} from '@marketplace/contracts/api'
import { callerOf, exactTypesKeepingUnknownFields as exactTypes } from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import type { FastifyRequest } from 'fastify'
import type { BlocksService } from './blocks-service'

const tags = ['people']

/**
 * Blocking (docs/blocking.md). Every route needs a token and acts on the caller's own blocks
 * only: there is no user id of the blocker to name, so nobody can act for someone else.
 */
export async function blocksRoutes(app: ServiceApp, deps: { service: BlocksService }) {
  app.addHook('preHandler', app.authenticate)
  const context = (request: FastifyRequest) => ({
    callerId: callerOf(request).userId,
    requestId: request.id,
  })

  app.post(
    '/api/people/blocks',
    {
      schema: {
        tags,
        summary: 'Block a person: neither sees the other anywhere any more',
        description:
          'Both ways: no requests (403), no messages, neither sees the other’s posts or worker profile, no notifications from the other. The blocked person is not told. 201 for a new block, 200 when it was already there; 400 for oneself, 404 for nobody known.',
        security: SECURED,
        body: BlockBodySchema,
        response: {
          200: BlockedUserSchema,
          201: BlockedUserSchema,
          ...errorResponses(400, 401, 404),
        },
      },
      validatorCompiler: exactTypes,
    },
    async (request, reply) => {
      const { created, block } = await deps.service.block(request.body.userId, context(request))
      return reply.code(created ? 201 : 200).send(block)
    },
  )

  app.delete(
    '/api/people/blocks/:userId',
    {
      schema: {
        tags,
        summary: 'Lift a block',
        security: SECURED,
        params: BlockParamsSchema,
        response: { 204: NoContent, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await deps.service.unblock(request.params.userId, context(request))
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/api/people/blocks',
    {
      schema: {
        tags,
        summary: 'The people the caller blocked, newest first',
        security: SECURED,
        response: { 200: BlockedUserListSchema, ...errorResponses(401) },
      },
    },
    async (request) => deps.service.list(callerOf(request).userId),
  )
}
