import {
  JobsStatsParamsSchema,
  JobsStatsSchema,
  SECURED,
  errorResponses,
} from '@marketplace/contracts/api'
import { assertSelf } from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import type { JobsStats } from './jobs-stats'

/** The user's own figures (docs/ratings-and-stats.md); a foreign {userId} answers 403. */
export async function jobsStatsRoutes(app: ServiceApp, deps: { stats: JobsStats }) {
  app.get(
    '/api/jobs/stats/:userId',
    {
      schema: {
        tags: ['jobs'],
        summary: "The caller's posts, the requests on them and the requests they sent",
        security: SECURED,
        params: JobsStatsParamsSchema,
        response: { 200: JobsStatsSchema, ...errorResponses(400, 401, 403) },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const { userId } = assertSelf(request, request.params.userId)
      return deps.stats.of(userId)
    },
  )
}
