import {
  buildService,
  createRequestActivity,
  requestActivityIndexes,
} from '@marketplace/service-kit'
import { createPostAccess, postAccessIndexes } from './access/post-access'
import { createPostReaders } from './access/post-readers'
import { snapshotStoreFrom } from '@marketplace/read-models/snapshot'
import type { JobsConfig } from './config'
import { jobsSubscriptions } from './events/subscriptions'
import { FeedIndex } from './feed/feed-index'
import { backfillLifeNotices } from './posts/post-life-backfill'
import { recordGrantsWrite, recordPostWrite } from './feed/post-write-position'
import { feedRoutes } from './feed/feed-routes'
import { createFeedSync } from './feed/feed-sync'
import { schedulePostDeletionSweep } from './posts/post-deletion-sweep'
import { createPostLifeService } from './posts/post-life-service'
import { schedulePostLifeSweep } from './posts/post-life-sweep'
import {
  createPostDeletionsRepository,
  postDeletionIndexes,
} from './posts/post-deletions-repository'
import { POSTS_COLLECTION } from './posts/post-document'
import {
  POST_TOMBSTONES_COLLECTION,
  createPostsRepository,
  postIndexes,
} from './posts/posts-repository'
import { postsRoutes } from './posts/posts-routes'
import { createPostsService } from './posts/posts-service'
import { JOB_REQUESTS_COLLECTION, REQUEST_TOMBSTONES_COLLECTION } from './requests/request-document'
import { createRequestsRepository, requestIndexes } from './requests/requests-repository'
import { requestsRoutes } from './requests/requests-routes'
import { createRequestsService } from './requests/requests-service'
import { createJobsStats } from './stats/jobs-stats'
import { jobsStatsRoutes } from './stats/stats-routes'
import { createUserDirectory } from './users/user-directory'
import { createWorkerStanding } from './requests/worker-standing'
import { createBlockSets } from '@marketplace/read-models/blocks'

/** Posts, categories, the feed and search (an in-process index), requests on posts. */
export function buildJobsApp(config: JobsConfig) {
  return buildService(config, {
    database: {
      indexes: [
        ...postIndexes,
        ...postDeletionIndexes,
        ...requestIndexes,
        ...postAccessIndexes,
        ...requestActivityIndexes,
      ],
      outbox: [
        POSTS_COLLECTION,
        POST_TOMBSTONES_COLLECTION,
        JOB_REQUESTS_COLLECTION,
        REQUEST_TOMBSTONES_COLLECTION,
      ],
    },
    tokenRevocations: true,
    compose({ app, db, notifyOutbox, tokenRevocations }) {
      const feed = new FeedIndex()
      const posts = createPostsRepository(db, {
        notifyOutbox,
        // The feed follows every write of this process at once, and the answer names the
        // post's new version for the caller's next reads on other instances (read-your-writes).
        postChanged: (postId, post) => {
          feedSync.apply(postId, post)
          recordPostWrite(postId, post)
        },
      })
      const users = createUserDirectory(db)
      // Who blocked whom (people's user.blocked and user.unblocked, docs/blocking.md).
      const blocks = createBlockSets(db)
      const access = createPostAccess(db)
      // A grant changed here: this process's feed re-reads it at once (others learn by events).
      const onAccessChanged = (postId: string) => {
        recordGrantsWrite(postId)
        feedSync
          .refreshAccess(postId)
          .catch((error: unknown) => app.log.error({ err: error }, 'feed access refresh failed'))
      }
      const requests = createRequestsRepository(db, { notifyOutbox })
      const standing = createWorkerStanding(db)
      const activity = createRequestActivity(db)
      const readers = createPostReaders({ requests, access })
      // Request grants of earlier versions: nothing reads them (post-access.ts). In the
      // background: the service serves meanwhile, and deleting twice is harmless.
      access
        .deleteLeftoverRequestGrants()
        .catch((error: unknown) => app.log.error({ err: error }, 'leftover grants not deleted'))
      const postDeletions = createPostDeletionsRepository(db)
      const requestsService = createRequestsService({
        requests,
        posts,
        users,
        onAccessChanged,
        isBlockedBetween: blocks.between,
      })
      const postsService = createPostsService({
        posts,
        access,
        readers,
        onAccessChanged,
        isOwnerLeaving: (userId) => users.isLeaving(userId),
        isBlockedBetween: blocks.between,
        deletions: postDeletions,
        discardRequestsOfPost: (postId, context) =>
          requestsService.discardAllOfPost(postId, context),
      })
      const stopDeletionSweep = schedulePostDeletionSweep(
        postsService,
        config.POST_DELETION_SWEEP_MS,
        app.log.child({ component: 'post-deletion-sweep' }),
      )
      const postLife = createPostLifeService({
        posts,
        readers,
        pendingRequestersOf: (postId) => requests.pendingRequestersOf(postId),
      })
      // Posts stored before the life notices get theirs (post-life-backfill.ts). In the
      // background, as the grants above: the service serves meanwhile.
      backfillLifeNotices(posts)
        .then((count) => {
          if (count > 0) app.log.info({ posts: count }, 'life notices set on older posts')
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'life notices not backfilled'))
      const stopLifeSweep = schedulePostLifeSweep(
        postLife,
        config.POST_LIFE_SWEEP_MS,
        app.log.child({ component: 'post-life-sweep' }),
      )
      const feedSync = createFeedSync({
        feed,
        posts,
        readers,
        logger: app.log.child({ component: 'feed' }),
        kafka: app.kafka.client,
        snapshots: snapshotStoreFrom(config),
        snapshotEveryMs: config.SNAPSHOT_EVERY_MS,
      })

      return {
        subscriptions: [
          ...jobsSubscriptions({
            posts: postsService,
            requests: requestsService,
            users,
            tokenRevocations,
            activity,
          }),
          feedSync.consumer,
          standing.consumer,
          // A group of its own: the block pairs, kept in the database for every instance.
          { groupId: 'jobs-blocks', handlers: blocks.handlers },
        ],
        // Served only once it holds every post and has caught up with the topics.
        readModels: [
          {
            name: 'feed',
            label: 'feed index',
            load: feedSync.load,
            isLoaded: feedSync.isLoaded,
            startsItsGroup: true,
          },
        ],
        async routes(app) {
          await app.register(feedRoutes, {
            feed,
            pageSize: config.FEED_PAGE_SIZE,
            accessOf: feedSync.accessOf,
            catchUp: feedSync.catchUp,
            readPost: (postId: string) => posts.findById(postId),
            hiddenFrom: blocks.hiddenFrom,
          })
          await app.register(postsRoutes, { service: postsService, life: postLife })
          await app.register(requestsRoutes, {
            service: requestsService,
            requests,
            posts,
            users,
            readers,
            standing,
            hiddenFrom: blocks.hiddenFrom,
          })
          await app.register(jobsStatsRoutes, {
            stats: createJobsStats(db, { activity, requests, posts }),
          })
        },
        close() {
          stopDeletionSweep()
          stopLifeSweep()
          feedSync.close()
        },
        expose: { feed, feedSync, postsService, postDeletions, postLife },
      }
    },
  })
}
