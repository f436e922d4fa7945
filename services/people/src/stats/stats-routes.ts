import {
  PeopleOwnUserParamsSchema,
  PeopleStatsViewSchema,
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
import type { PeopleStats } from './people-stats'

/** The user's own figures (docs/ratings-and-stats.md); a foreign {userId} answers 403. */
export async function peopleStatsRoutes(app: ServiceApp, deps: { stats: PeopleStats }) {
  app.get(
    '/api/people/stats/:userId',
    {
      schema: {
        tags: ['people'],
        summary: 'One’s people requests per status and per day, and one’s rating as a worker',
        security: SECURED,
        params: PeopleOwnUserParamsSchema,
        querystring: StatsDaysQuerySchema,
        response: { 200: PeopleStatsViewSchema, ...errorResponses(400, 401, 403) },
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
