import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { assertSelf } from '@marketplace/service-kit'
import type { FavoritesStats } from './favorites-stats'

const UserParams = Type.Object({ userId: Type.String({ maxLength: 64 }) })

/** The user's own figures (docs/ratings-and-stats.md); a foreign {userId} answers 403. */
export async function favoritesStatsRoutes(app: FastifyInstance, deps: { stats: FavoritesStats }) {
  app.get(
    '/api/favorites/stats/:userId',
    { schema: { params: UserParams }, preHandler: app.authenticate },
    async (request) => {
      const { userId } = assertSelf(request, (request.params as { userId: string }).userId)
      return deps.stats.of(userId)
    },
  )
}
