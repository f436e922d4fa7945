import {
  RateableRequestListSchema,
  SECURED,
  SavedWorkerRatingSchema,
  WorkerRatingBodySchema,
  WorkerRatingParamsSchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { callerOf } from '@marketplace/service-kit'
import { exactTypesKeepingUnknownFields as exactTypes } from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import { savedRatingView } from './rating-views'
import type { RatingsService } from './ratings-service'

const tags = ['people']

/**
 * "Rate your workers" (docs/ratings-and-stats.md). Every route needs a token; the list is the
 * caller's own, and a request on someone else's post answers 404, as if it did not exist.
 */
export async function ratingsRoutes(app: ServiceApp, deps: { service: RatingsService }) {
  app.addHook('preHandler', app.authenticate)

  app.get(
    '/api/people/ratings/rateable',
    {
      schema: {
        tags,
        summary: 'The accepted requests on one’s posts, with one’s rating of each worker',
        security: SECURED,
        response: { 200: RateableRequestListSchema, ...errorResponses(401) },
      },
    },
    async (request) => deps.service.rateable(callerOf(request).userId),
  )

  app.put(
    '/api/people/ratings/:requestId',
    {
      schema: {
        tags,
        summary: 'Rate the worker of an accepted request on one’s post, or change the rating',
        description:
          '201 for the first rating of the request, 200 for a change. Only accepted requests (409), changes within 14 days (409).',
        security: SECURED,
        params: WorkerRatingParamsSchema,
        body: WorkerRatingBodySchema,
        response: {
          200: SavedWorkerRatingSchema,
          201: SavedWorkerRatingSchema,
          ...errorResponses(400, 401, 404, 409),
        },
      },
      validatorCompiler: exactTypes,
    },
    async (request, reply) => {
      const caller = callerOf(request)
      const { rating, created } = await deps.service.rate(request.params.requestId, request.body, {
        callerId: caller.userId,
        requestId: request.id,
      })
      return reply.code(created ? 201 : 200).send(savedRatingView(rating))
    },
  )
}
