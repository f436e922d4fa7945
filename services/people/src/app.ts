import {
  buildService,
  createRequestActivity,
  requestActivityIndexes,
} from '@marketplace/service-kit'
import type { PeopleConfig } from './config'
import { createBlockSets } from '@marketplace/read-models/blocks'
import { BLOCKS_COLLECTION } from './blocks/block-document'
import { blockIndexes, createBlocksRepository } from './blocks/blocks-repository'
import { blocksRoutes } from './blocks/blocks-routes'
import { createBlocksService } from './blocks/blocks-service'
import { createAccountPurge } from './deletion/account-purge'
import { peopleSubscriptions } from './events/subscriptions'
import { snapshotStoreFrom } from '@marketplace/read-models/snapshot'
import { createPeopleFeed, createPeopleFeedSync } from './feed/people-feed'
import { peopleRoutes } from './feed/people-feed-routes'
import { recordProfileWrite } from './feed/profile-write-position'
import { createKnownPosts, knownPostIndexes } from './posts/known-posts'
import { PROFILES_COLLECTION } from './profiles/profile-document'
import { createProfilesRepository, profileIndexes } from './profiles/profiles-repository'
import { createProfilesService } from './profiles/profiles-service'
import { createStaleContactViewersCleanup } from './profiles/stale-contact-viewers'
import { usersRoutes } from './profiles/users-routes'
import { createKnownJobRequests, knownJobRequestIndexes } from './ratings/known-job-requests'
import { createRatingsRepository, ratingIndexes } from './ratings/ratings-repository'
import { ratingsRoutes } from './ratings/ratings-routes'
import { createRatingsService } from './ratings/ratings-service'
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
import { createPeopleStats } from './stats/people-stats'
import { peopleStatsRoutes } from './stats/stats-routes'

/** User and worker profiles, the people feed, requests to people, ratings, account deletion. */
export function buildPeopleApp(config: PeopleConfig) {
  return buildService(config, {
    database: {
      indexes: [
        ...profileIndexes,
        ...peopleRequestIndexes,
        ...knownPostIndexes,
        ...knownJobRequestIndexes,
        ...ratingIndexes,
        ...requestActivityIndexes,
        ...blockIndexes,
      ],
      outbox: [
        BLOCKS_COLLECTION,
        PROFILES_COLLECTION,
        PEOPLE_REQUESTS_COLLECTION,
        PEOPLE_REQUEST_TOMBSTONES_COLLECTION,
      ],
    },
    // Tokens issued before a password change, reset or deletion request (user.tokens-revoked).
    tokenRevocations: true,
    compose({ app, db, notifyOutbox, tokenRevocations }) {
      const feed = createPeopleFeed()
      const profiles = createProfilesRepository(db, {
        notifyOutbox,
        // The feed follows every write of this process at once, and the answer names the
        // profile's new version for the caller's next reads on other instances.
        profileChanged: (userId, profile) => {
          feedSync.apply(userId, profile)
          recordProfileWrite(userId, profile)
        },
      })
      const profilesService = createProfilesService({
        profiles,
        gracePeriodMs: config.DELETION_GRACE_MS,
      })
      const knownPosts = createKnownPosts(db)
      // Who blocked whom (docs/blocking.md): the source of truth, and the pairs every read here
      // honours (written at once by a block, and again by its event).
      const blockSets = createBlockSets(db)
      const blocksService = createBlocksService({
        blocks: createBlocksRepository(db, { notifyOutbox }),
        blockSets,
        profiles,
      })
      const requests = createPeopleRequestsRepository(db, { notifyOutbox })
      const requestsService = createPeopleRequestsService({
        requests,
        profiles,
        posts: knownPosts,
        isBlockedBetween: blockSets.between,
      })
      const jobRequests = createKnownJobRequests(db)
      const ratings = createRatingsService({
        ratings: createRatingsRepository(db),
        jobRequests,
        profiles,
        logger: app.log.child({ component: 'ratings' }),
      })
      const activity = createRequestActivity(db)
      const stats = createPeopleStats(db, { profiles, activity, requests })
      const purge = createAccountPurge({
        profiles,
        requests,
        knownPosts,
        logger: app.log.child({ component: 'account-purge' }),
      })
      const feedSync = createPeopleFeedSync({
        feed,
        profiles,
        logger: app.log.child({ component: 'people-feed' }),
        kafka: app.kafka.client,
        snapshots: snapshotStoreFrom(config),
        snapshotEveryMs: config.SNAPSHOT_EVERY_MS,
      })
      const staleContactViewers = createStaleContactViewersCleanup({
        db,
        profiles,
        knownPosts,
        jobRequests,
        logger: app.log.child({ component: 'stale-contact-viewers' }),
      })
      // A one-off step (docs/people.md), in the background: the service serves meanwhile.
      staleContactViewers
        .runOnce()
        .catch((error: unknown) =>
          app.log.error({ err: error }, 'stale contact viewers step failed'),
        )
      const stopPurge = purge.schedule(config.PURGE_INTERVAL_MS)
      const stopRatingSweep = ratings.schedule(60_000)

      return {
        subscriptions: [
          ...peopleSubscriptions({
            profiles,
            profilesService,
            knownPosts,
            jobRequests,
            ratings,
            purge,
            tokenRevocations,
            activity,
          }),
          feedSync.consumer,
          // The block pairs (a group of its own); user.deleted takes the user's blocks away.
          {
            groupId: 'people-blocks',
            handlers: {
              ...blockSets.handlers,
              'user.deleted': async (event) => {
                await blocksService.removeUser(event.data.userId)
                await blockSets.handlers['user.deleted']!(event)
              },
            },
          },
        ],
        // Served once it holds every profile and has caught up with the topics (as in jobs).
        readModels: [
          {
            name: 'people-feed',
            label: 'people feed',
            load: feedSync.load,
            isLoaded: feedSync.isLoaded,
            startsItsGroup: true,
          },
        ],
        async routes(app) {
          await app.register(usersRoutes, {
            profiles,
            service: profilesService,
            isBlockedBetween: blockSets.between,
          })
          await app.register(peopleRoutes, {
            feed,
            pageSize: config.FEED_PAGE_SIZE,
            readProfile: (userId: string) => profiles.findById(userId),
            catchUp: feedSync.catchUp,
            hiddenFrom: blockSets.hiddenFrom,
          })
          await app.register(blocksRoutes, { service: blocksService })
          await app.register(peopleRequestsRoutes, { service: requestsService, requests, profiles })
          await app.register(ratingsRoutes, { service: ratings })
          await app.register(peopleStatsRoutes, { stats })
        },
        close() {
          stopPurge()
          stopRatingSweep()
          feedSync.close()
        },
        expose: { feed, feedSync, purge, ratings, staleContactViewers },
      }
    },
  })
}
