import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { LooseBody, callerOf } from '@marketplace/service-kit'
import { ratingView } from './rating-views'
import type { RatingsService } from './ratings-service'

const RequestParams = Type.Object({ requestId: Type.String({ maxLength: 64 }) })

/**
 * "Rate your workers" (docs/ratings-and-stats.md). Every route needs a token; the list is the
 * caller's own, and a request on someone else's post answers 404, as if it did not exist.
 */
export async function ratingsRoutes(app: FastifyInstance, deps: { service: RatingsService }) {
  app.addHook('preHandler', app.authenticate)

  app.get('/api/people/ratings/rateable', async (request) =>
    deps.service.rateable(callerOf(request).userId),
  )

  app.put(
    '/api/people/ratings/:requestId',
    { schema: { params: RequestParams, body: LooseBody } },
    async (request, reply) => {
      const caller = callerOf(request)
      const { requestId } = request.params as { requestId: string }
      const { rating, created } = await deps.service.rate(requestId, request.body, {
        callerId: caller.userId,
        requestId: request.id,
      })
      return reply.code(created ? 201 : 200).send({
        _id: rating._id,
        requestId: rating.requestId,
        workerId: rating.workerId,
        ...ratingView(rating),
      })
    },
  )
}
