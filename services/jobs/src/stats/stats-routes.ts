import {
  JobsStatsParamsSchema,
  JobsStatsSchema,
  SECURED,
  StatsDaysQuerySchema,
  errorResponses,
} from '@marketplace/contracts/api'
import {
  assertSelf,
  integerParam,
  type ServiceApp,
  ACTIVITY_DAYS_DEFAULT,
  ACTIVITY_DAYS_MAX,
} from '@marketplace/service-kit'
import type { JobsStats } from './jobs-stats'

/** The user's own figures (docs/ratings-and-stats.md); a foreign {userId} answers 403. */
export async function jobsStatsRoutes(app: ServiceApp, deps: { stats: JobsStats }) {
  app.get(
    '/api/jobs/stats/:userId',
    {
      schema: {
        tags: ['jobs'],
        summary:
          "The caller's posts, the requests on them and the requests they sent, with their daily series",
        security: SECURED,
        params: JobsStatsParamsSchema,
        querystring: StatsDaysQuerySchema,
        response: { 200: JobsStatsSchema, ...errorResponses(400, 401, 403) },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const { userId } = assertSelf(request, request.params.userId)
      const days = integerParam(request.query.days, 'days', {
        min: 1,
        max: ACTIVITY_DAYS_MAX,
        fallback: ACTIVITY_DAYS_DEFAULT,
      })
      return deps.stats.of(userId, days)
    },
  )
}
