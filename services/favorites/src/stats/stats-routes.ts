import {
  FavoritesStatsSchema,
  FavoritesUserParamsSchema,
  SECURED,
  errorResponses,
} from '@marketplace/contracts/api'
import { assertSelf } from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import type { FavoritesStats } from './favorites-stats'

/** The user's own figures (docs/ratings-and-stats.md); a foreign {userId} answers 403. */
export async function favoritesStatsRoutes(app: ServiceApp, deps: { stats: FavoritesStats }) {
  app.get(
    '/api/favorites/stats/:userId',
    {
      schema: {
        tags: ['favorites'],
        summary: "How often others saved the caller's posts and the caller",
        security: SECURED,
        params: FavoritesUserParamsSchema,
        response: { 200: FavoritesStatsSchema, ...errorResponses(400, 401, 403) },
      },
      onRequest: app.authenticate,
    },
    async (request) => deps.stats.of(assertSelf(request, request.params.userId).userId),
  )
}
