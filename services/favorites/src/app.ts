import {
  TOKEN_REVOCATIONS_INDEXES,
  authPlugin,
  createServiceApp,
  createTokenRevocations,
  kafkaPlugin,
  mongoPlugin,
} from '@marketplace/service-kit'
import { CATALOG_INDEXES, createCatalogs } from '@marketplace/service-kit/read-models'
import type { FavoritesConfig } from './config'
import { favoritesSubscriptions } from './events/subscriptions'
import { FAVORITES_COLLECTION, FAVORITE_TOMBSTONES_COLLECTION } from './favorites/favorite-document'
import { createFavoritesRepository, favoriteIndexes } from './favorites/favorites-repository'
import { createFavoritesService } from './favorites/favorites-service'
import { favoritesRoutes } from './favorites/favorites-routes'
import { createFavoritesStats, favoritesStatsIndexes } from './stats/favorites-stats'
import { favoritesStatsRoutes } from './stats/stats-routes'

export async function buildFavoritesApp(config: FavoritesConfig) {
  const app = await createServiceApp({
    serviceName: config.SERVICE_NAME,
    logLevel: config.LOG_LEVEL,
  })
  await app.register(mongoPlugin, {
    url: config.MONGO_URL,
    indexes: [
      ...favoriteIndexes,
      ...favoritesStatsIndexes,
      ...CATALOG_INDEXES,
      ...TOKEN_REVOCATIONS_INDEXES,
    ],
  })
  const db = app.mongo.db
  const tokenRevocations = createTokenRevocations(db)

  // The relay exists only once the Kafka plugin is registered; writes before that are still
  // published by its first sweep.
  let notifyOutbox: (target: { collection: string; id: string }) => void = () => {}
  const favorites = createFavoritesRepository(db, {
    notifyOutbox: (target) => notifyOutbox(target),
  })
  const { posts, people, consumers } = createCatalogs(db, {
    // A deleted post leaves every list it was saved in.
    postDeleted: (postId) => favorites.deleteOfTarget(postId),
    // The grace period ended: the user's lists, and every entry about them or their posts.
    userDeleted: (userId) => favorites.deleteOfUser(userId),
  })
  const service = createFavoritesService({
    favorites,
    posts,
    people,
    maxPerKind: config.FAVORITES_MAX_PER_KIND,
  })

  await app.register(kafkaPlugin, {
    brokers: config.KAFKA_BROKERS,
    clientId: config.SERVICE_NAME,
    outboxCollections: [FAVORITES_COLLECTION, FAVORITE_TOMBSTONES_COLLECTION],
    pollMs: config.OUTBOX_POLL_MS,
    consumers: favoritesSubscriptions({ catalogs: consumers('favorites'), tokenRevocations }),
    groupPrefix: config.KAFKA_GROUP_PREFIX,
  })
  notifyOutbox = (target) => app.events.notifyOutbox(target)
  await app.register(authPlugin, {
    publicKey: config.JWT_PUBLIC_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    isTokenStillValid: tokenRevocations.isTokenStillValid,
  })

  await app.register(favoritesRoutes, { service })
  await app.register(favoritesStatsRoutes, { stats: createFavoritesStats(db) })
  return app
}
