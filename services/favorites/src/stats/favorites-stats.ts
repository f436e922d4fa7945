import type { FavoritesStats as FavoritesStatsView } from '@marketplace/contracts/api'
import type { IndexDefinition } from '@marketplace/service-kit'
import { FAVORITES_COLLECTION } from '../favorites/favorite-document'
import type { FavoritesRepository } from '../favorites/favorites-repository'

export const favoritesStatsIndexes: IndexDefinition[] = [
  // targetOwnerId = ?, kind = ?: the counts below, and user.deleted of a target's owner.
  {
    collection: FAVORITES_COLLECTION,
    keys: { targetOwnerId: 1, kind: 1 },
    options: { name: 'by_target_owner_kind' },
  },
]

/**
 * GET /api/favorites/stats/{userId} (docs/ratings-and-stats.md): how many times other users
 * saved the user's posts and the user as a person: two counts on `by_target_owner_kind`.
 * Nobody can save their own post or themself
 * (favorites-service.ts), so every entry counted is someone else's.
 */
export function createFavoritesStats(favorites: Pick<FavoritesRepository, 'savedOf'>) {
  const received = favorites.savedOf

  return {
    async of(userId: string): Promise<FavoritesStatsView> {
      const [postFavoritesReceived, peopleFavoritesReceived] = await Promise.all([
        received(userId, 'post'),
        received(userId, 'person'),
      ])
      return { postFavoritesReceived, peopleFavoritesReceived }
    },
  }
}

export type FavoritesStats = ReturnType<typeof createFavoritesStats>
