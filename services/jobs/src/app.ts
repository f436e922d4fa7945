import {
  TOKEN_REVOCATIONS_INDEXES,
  authPlugin,
  createServiceApp,
  createTokenRevocations,
  kafkaPlugin,
  mongoPlugin,
  type OutboxTarget,
} from '@marketplace/service-kit'
import type { JobsConfig } from './config'
import { jobsSubscriptions } from './events/subscriptions'
import { FeedIndex } from './feed/feed-index'
import { createFeedSync, type FeedSync } from './feed/feed-sync'
import { POSTS_COLLECTION } from './posts/post-document'
import {
  POST_TOMBSTONES_COLLECTION,
  createPostsRepository,
  postIndexes,
} from './posts/posts-repository'
import { createPostsService } from './posts/posts-service'
import { feedRoutes } from './feed/feed-routes'
import { postsRoutes } from './posts/posts-routes'
import { requestsRoutes } from './requests/requests-routes'
import { JOB_REQUESTS_COLLECTION, REQUEST_TOMBSTONES_COLLECTION } from './requests/request-document'
import { createRequestsRepository, requestIndexes } from './requests/requests-repository'
import { createRequestsService } from './requests/requests-service'
import { createUserDirectory } from './users/user-directory'
import { createPostAccess, postAccessIndexes } from './access/post-access'
import { createJobsStats, jobsStatsIndexes } from './stats/jobs-stats'
import { jobsStatsRoutes } from './stats/stats-routes'

export async function buildJobsApp(config: JobsConfig) {
  const app = await createServiceApp({
    serviceName: config.SERVICE_NAME,
    logLevel: config.LOG_LEVEL,
  })
  await app.register(mongoPlugin, {
    url: config.MONGO_URL,
    indexes: [
      ...postIndexes,
      ...requestIndexes,
      ...postAccessIndexes,
      ...jobsStatsIndexes,
      ...TOKEN_REVOCATIONS_INDEXES,
    ],
  })
  const db = app.mongo.db
  const tokenRevocations = createTokenRevocations(db)
  const feed = new FeedIndex()

  // The relay exists only once the Kafka plugin is registered; writes before that (none in
  // practice) are still published by its first sweep.
  let notifyOutbox: (target: OutboxTarget) => void = () => {}
  // The feed follows every write of this process at once (read-your-writes).
  let feedSync: FeedSync | null = null
  const posts = createPostsRepository(db, {
    notifyOutbox: (target) => notifyOutbox(target),
    postChanged: (postId, post) => feedSync?.apply(postId, post),
  })
  const users = createUserDirectory(db)
  const access = createPostAccess(db)
  // A grant changed here: this process's feed re-reads it at once (others learn by events).
  const onAccessChanged = (postId: string) => {
    feedSync
      ?.refreshAccess(postId)
      .catch((error: unknown) => app.log.error({ err: error }, 'feed access refresh failed'))
  }
  const requests = createRequestsRepository(db, { notifyOutbox: (target) => notifyOutbox(target) })
  const requestsService = createRequestsService({ requests, posts, users, access, onAccessChanged })
  const postsService = createPostsService({
    posts,
    access,
    onAccessChanged,
    deleteRequestsOfPost: (postId) => requests.deleteOfPost(postId),
  })
  feedSync = createFeedSync({ feed, posts, access, logger: app.log.child({ component: 'feed' }) })

  await app.register(kafkaPlugin, {
    brokers: config.KAFKA_BROKERS,
    clientId: config.SERVICE_NAME,
    outboxCollections: [
      POSTS_COLLECTION,
      POST_TOMBSTONES_COLLECTION,
      JOB_REQUESTS_COLLECTION,
      REQUEST_TOMBSTONES_COLLECTION,
    ],
    pollMs: config.OUTBOX_POLL_MS,
    consumers: [
      ...jobsSubscriptions({
        posts: postsService,
        requests: requestsService,
        users,
        tokenRevocations,
      }),
      feedSync.consumer,
    ],
    groupPrefix: config.KAFKA_GROUP_PREFIX,
  })
  notifyOutbox = (target) => app.events.notifyOutbox(target)
  await app.register(authPlugin, {
    publicKey: config.JWT_PUBLIC_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    isTokenStillValid: tokenRevocations.isTokenStillValid,
  })

  // Serve only once the feed holds every post; reload after the feed's consumer group has
  // joined, so a change made by another replica meanwhile is not missed (feed-sync.ts).
  // Usually Kafka is up and the groups join within seconds: one load is then enough. When it
  // is not, the service still starts, and loads again once the group has joined.
  const joinedInTime = await Promise.race([
    app.events.ready.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000).unref()),
  ])
  await feedSync.load()
  if (!joinedInTime) {
    app.events.ready
      .then(() => feedSync.load())
      .catch((error: unknown) => app.log.error({ err: error }, 'feed index reload failed'))
  }
  app.addReadinessCheck('feed', async () => {
    if (!feedSync.isLoaded()) throw new Error('feed index loading')
  })

  await app.register(feedRoutes, {
    feed,
    pageSize: config.FEED_PAGE_SIZE,
    accessOf: (postId: string) => feedSync?.accessOf(postId) ?? [],
  })
  await app.register(postsRoutes, { service: postsService })
  await app.register(requestsRoutes, { service: requestsService, requests, posts, users, access })
  await app.register(jobsStatsRoutes, { stats: createJobsStats(db) })
  return Object.assign(app, { feed, feedSync })
}
