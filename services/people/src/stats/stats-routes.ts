import {
  PeopleOwnUserParamsSchema,
  PeopleStatsViewSchema,
  SECURED,
  errorResponses,
} from '@marketplace/contracts/api'
import { assertSelf } from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import type { PeopleStats } from './people-stats'

/** The user's own figures (docs/ratings-and-stats.md); a foreign {userId} answers 403. */
export async function peopleStatsRoutes(app: ServiceApp, deps: { stats: PeopleStats }) {
  app.get(
    '/api/people/stats/:userId',
    {
      schema: {
        tags: ['people'],
        summary: 'One’s people requests per status and one’s rating as a worker',
        security: SECURED,
        params: PeopleOwnUserParamsSchema,
        response: { 200: PeopleStatsViewSchema, ...errorResponses(400, 401, 403) },
      },
      preHandler: app.authenticate,
    },
    async (request) => deps.stats.of(assertSelf(request, request.params.userId).userId),
  )
}
