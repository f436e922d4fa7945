import {
  TOKEN_REVOCATIONS_INDEXES,
  authPlugin,
  createServiceApp,
  createTokenRevocations,
  kafkaPlugin,
  mongoPlugin,
} from '@marketplace/service-kit'
import type { PeopleConfig } from './config'
import { createAccountPurge } from './deletion/account-purge'
import { peopleSubscriptions } from './events/subscriptions'
import { createPeopleFeed, createPeopleFeedSync, type PeopleFeedSync } from './feed/people-feed'
import { peopleRoutes } from './feed/people-feed-routes'
import { createKnownPosts, knownPostIndexes } from './posts/known-posts'
import { PROFILES_COLLECTION } from './profiles/profile-document'
import { createProfilesRepository, profileIndexes } from './profiles/profiles-repository'
import { createProfilesService } from './profiles/profiles-service'
import { usersRoutes } from './profiles/users-routes'
import {
  PEOPLE_REQUESTS_COLLECTION,
  PEOPLE_REQUEST_TOMBSTONES_COLLECTION,
} from './requests/people-request-document'
import {
  createPeopleRequestsRepository,
  peopleRequestIndexes,
} from './requests/people-requests-repository'
import { peopleRequestsRoutes } from './requests/people-requests-routes'
import { createPeopleRequestsService } from './requests/people-requests-service'
import { createKnownJobRequests, knownJobRequestIndexes } from './ratings/known-job-requests'
import { createRatingsRepository, ratingIndexes } from './ratings/ratings-repository'
import { ratingsRoutes } from './ratings/ratings-routes'
import { createRatingsService } from './ratings/ratings-service'
import { createPeopleStats, peopleStatsIndexes } from './stats/people-stats'
import { peopleStatsRoutes } from './stats/stats-routes'

export async function buildPeopleApp(config: PeopleConfig) {
  const app = await createServiceApp({
    serviceName: config.SERVICE_NAME,
    logLevel: config.LOG_LEVEL,
  })
  await app.register(mongoPlugin, {
    url: config.MONGO_URL,
    indexes: [
      ...profileIndexes,
      ...peopleRequestIndexes,
      ...knownPostIndexes,
      ...knownJobRequestIndexes,
      ...ratingIndexes,
      ...peopleStatsIndexes,
      ...TOKEN_REVOCATIONS_INDEXES,
    ],
  })
  const db = app.mongo.db
  // Tokens issued before a password change, reset or deletion request (user.tokens-revoked).
  const tokenRevocations = createTokenRevocations(db)
  const feed = createPeopleFeed()

  // The relay exists only once the Kafka plugin is registered; writes before that are still
  // published by its first sweep.
  let notifyOutbox: (target: { collection: string; id: string }) => void = () => {}
  // The feed follows every write of this process at once (read-your-writes).
  let feedSync: PeopleFeedSync | null = null
  const profiles = createProfilesRepository(db, {
    notifyOutbox: (target) => notifyOutbox(target),
    profileChanged: (userId, profile) => feedSync?.apply(userId, profile),
  })
  const profilesService = createProfilesService({
    profiles,
    gracePeriodMs: config.DELETION_GRACE_MS,
  })
  const knownPosts = createKnownPosts(db)
  const requests = createPeopleRequestsRepository(db, {
    notifyOutbox: (target) => notifyOutbox(target),
  })
  const requestsService = createPeopleRequestsService({ requests, profiles, posts: knownPosts })
  const jobRequests = createKnownJobRequests(db)
  const ratings = createRatingsService({
    ratings: createRatingsRepository(db),
    jobRequests,
    profiles,
    logger: app.log.child({ component: 'ratings' }),
  })
  const stats = createPeopleStats(db, { profiles })
  const purge = createAccountPurge({
    profiles,
    requests,
    knownPosts,
    logger: app.log.child({ component: 'account-purge' }),
  })
  feedSync = createPeopleFeedSync({
    feed,
    profiles,
    logger: app.log.child({ component: 'people-feed' }),
  })

  await app.register(kafkaPlugin, {
    brokers: config.KAFKA_BROKERS,
    clientId: config.SERVICE_NAME,
    outboxCollections: [
      PROFILES_COLLECTION,
      PEOPLE_REQUESTS_COLLECTION,
      PEOPLE_REQUEST_TOMBSTONES_COLLECTION,
    ],
    pollMs: config.OUTBOX_POLL_MS,
    consumers: [
      ...peopleSubscriptions({
        profiles,
        profilesService,
        knownPosts,
        jobRequests,
        ratings,
        purge,
        tokenRevocations,
      }),
      {
        ...feedSync.consumer,
        // A rating changed a worker's average on another replica: re-read the profile.
        handlers: {
          ...feedSync.consumer.handlers,
          'worker.rated': async ({ data }) => feedSync?.refresh(data.workerId),
        },
      },
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

  // Serve once the feed holds every profile; load again after the feed's group has joined,
  // so a change another replica made meanwhile is not missed (as in the jobs service).
  const joinedInTime = await Promise.race([
    app.events.ready.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000).unref()),
  ])
  await feedSync.load()
  if (!joinedInTime) {
    app.events.ready
      .then(() => feedSync?.load())
      .catch((error: unknown) => app.log.error({ err: error }, 'people feed reload failed'))
  }
  app.addReadinessCheck('people-feed', async () => {
    if (!feedSync?.isLoaded()) throw new Error('people feed loading')
  })

  const stopPurge = purge.schedule(config.PURGE_INTERVAL_MS)
  app.addHook('onClose', async () => stopPurge())
  const stopRatingSweep = ratings.schedule(60_000)
  app.addHook('onClose', async () => stopRatingSweep())

  await app.register(usersRoutes, { profiles, service: profilesService })
  await app.register(peopleRoutes, { feed, pageSize: config.FEED_PAGE_SIZE })
  await app.register(peopleRequestsRoutes, { service: requestsService, requests, profiles })
  await app.register(ratingsRoutes, { service: ratings })
  await app.register(peopleStatsRoutes, { stats })
  return Object.assign(app, { feed, feedSync, purge, ratings })
}
