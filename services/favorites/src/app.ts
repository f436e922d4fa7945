import { buildService } from '@marketplace/service-kit'
import { CATALOG_INDEXES, createCatalogs } from '@marketplace/read-models/catalogs'
import { createBlockSets } from '@marketplace/read-models/blocks'
import type { FavoritesConfig } from './config'
import { favoritesSubscriptions } from './events/subscriptions'
import { FAVORITES_COLLECTION, FAVORITE_TOMBSTONES_COLLECTION } from './favorites/favorite-document'
import { createFavoritesRepository, favoriteIndexes } from './favorites/favorites-repository'
import { createFavoritesService } from './favorites/favorites-service'
import { favoritesRoutes } from './favorites/favorites-routes'
import { createFavoritesStats, favoritesStatsIndexes } from './stats/favorites-stats'
import { favoritesStatsRoutes } from './stats/stats-routes'

/** Favorite posts and people, shown from read models of the post and people events. */
export function buildFavoritesApp(config: FavoritesConfig) {
  return buildService(config, {
    database: {
      indexes: [...favoriteIndexes, ...favoritesStatsIndexes, ...CATALOG_INDEXES],
      outbox: [FAVORITES_COLLECTION, FAVORITE_TOMBSTONES_COLLECTION],
    },
    tokenRevocations: true,
    compose({ db, notifyOutbox, tokenRevocations }) {
      const favorites = createFavoritesRepository(
        db,
        { notifyOutbox },
        { maxPerKind: config.FAVORITES_MAX_PER_KIND },
      )
      const { posts, people, consumers } = createCatalogs(db, {
        // A deleted post leaves every list it was saved in.
        postDeleted: (postId) => favorites.deleteOfTarget(postId),
        // The grace period ended: the user's lists, and every entry about them or their posts.
        userDeleted: (userId) => favorites.deleteOfUser(userId),
      })
      // Who blocked whom (people's user.blocked and user.unblocked, docs/blocking.md).
      const blocks = createBlockSets(db)
      const service = createFavoritesService({
        favorites,
        posts,
        people,
        maxPerKind: config.FAVORITES_MAX_PER_KIND,
        hiddenFrom: blocks.hiddenFrom,
      })
      return {
        subscriptions: [
          ...favoritesSubscriptions({
            catalogs: consumers('favorites'),
            tokenRevocations,
          }),
          // A group of its own: the block pairs, kept in the database for every instance.
          { groupId: 'favorites-blocks', handlers: blocks.handlers },
        ],
        async routes(app) {
          await app.register(favoritesRoutes, { service })
          await app.register(favoritesStatsRoutes, { stats: createFavoritesStats(favorites) })
        },
      }
    },
  })
}
