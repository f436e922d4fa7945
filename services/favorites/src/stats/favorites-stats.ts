import type { Db } from 'mongodb'
import type { FavoritesStats as FavoritesStatsView } from '@marketplace/contracts/api'
import type { IndexDefinition } from '@marketplace/service-kit'
import {
  FAVORITES_COLLECTION,
  type FavoriteDocument,
  type FavoriteKind,
} from '../favorites/favorite-document'

export const favoritesStatsIndexes: IndexDefinition[] = [
  // targetOwnerId = ?, kind = ?: how often others saved the user's posts, or the user.
  {
    collection: FAVORITES_COLLECTION,
    keys: { targetOwnerId: 1, kind: 1 },
    options: { name: 'by_target_owner_kind' },
  },
]

/**
 * GET /api/favorites/stats/{userId} (docs/ratings-and-stats.md): how many times other users
 * saved the user's posts and the user as a person. Read-only counts on the favorites
 * collection (its repository writes it). Nobody can save their own post or themself
 * (favorites-service.ts), so every entry counted is someone else's.
 */
export function createFavoritesStats(db: Db) {
  const favorites = db.collection<FavoriteDocument>(FAVORITES_COLLECTION)
  const received = (userId: string, kind: FavoriteKind) =>
    favorites.countDocuments({ targetOwnerId: userId, kind })

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
