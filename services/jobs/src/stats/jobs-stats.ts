import type { Db } from 'mongodb'
import type { JobsRequestCounts, JobsStats as JobsStatsView } from '@marketplace/contracts/api'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import {
  type IndexDefinition,
  ACTIVITY_DAYS_DEFAULT,
  createRequestActivity,
  type RequestActivity,
} from '@marketplace/service-kit'
import { POSTS_COLLECTION, type PostDocument } from '../posts/post-document'
import { createRequestStore, type RequestStore } from '@marketplace/request-lifecycle'
import { JOB_REQUESTS, type JobRequestDocument } from '../requests/request-document'

/** Every count below is an equality (then range) on one of these. */
export const jobsStatsIndexes: IndexDefinition[] = [
  {
    collection: POSTS_COLLECTION,
    keys: { userID: 1, isOnline: 1, takenDown: 1, expiresAt: 1 },
    options: { name: 'owner_live' },
  },
]

const STATUSES: RequestStatus[] = ['pending', 'accepted', 'rejected']

/**
 * GET /api/jobs/stats/{userId} (docs/ratings-and-stats.md): the user's posts, online (live:
 * what the feed shows) or not, the requests received on them and the requests the user
 * sent. Read-only counts on the posts and requests collections (their repositories write
 * them), one per status rather than a $group: FerretDB's aggregation is limited. The daily
 * series comes from the user's activity buckets, read by `_id`.
 */
export function createJobsStats(
  db: Db,
  {
    now = () => new Date(),
    activity = createRequestActivity(db, now),
    // Read only: the store's lists, never its writes (their outbox notices go nowhere).
    requests = createRequestStore(db, JOB_REQUESTS, () => {}),
  }: {
    now?: () => Date
    activity?: RequestActivity
    requests?: Pick<RequestStore<JobRequestDocument>, 'sent' | 'received'>
  } = {},
) {
  const posts = db.collection<PostDocument>(POSTS_COLLECTION)

  /**
   * Counted from the user's list of requests (read by `_id`, issue 19 §2): a count on the
   * requests collection reads every user's requests on the local server.
   */
  async function requestCounts(
    side: 'sent' | 'received',
    userId: string,
  ): Promise<JobsRequestCounts> {
    const mine = await requests[side](userId)
    const [pending, accepted, rejected] = STATUSES.map(
      (status) => mine.filter((request) => request.status === status).length,
    ) as [number, number, number]
    return { total: pending + accepted + rejected, pending, accepted, rejected }
  }

  async function postCounts(userId: string) {
    const live = { userID: userId, isOnline: true, takenDown: false }
    // Live as posts-document.ts isLive says: no expiry, or one still ahead. Two counts
    // rather than an $or, each an equality-then-range on the index above.
    const [total, forever, notExpired] = await Promise.all([
      posts.countDocuments({ userID: userId }),
      posts.countDocuments({ ...live, expiresAt: null }),
      posts.countDocuments({ ...live, expiresAt: { $gt: now() } }),
    ])
    const online = forever + notExpired
    return { total, online, offline: total - online }
  }

  return {
    async of(userId: string, days = ACTIVITY_DAYS_DEFAULT): Promise<JobsStatsView> {
      const [postsCounts, requestsReceived, requestsSent, daily] = await Promise.all([
        postCounts(userId),
        requestCounts('received', userId),
        requestCounts('sent', userId),
        activity.daily(userId, days),
      ])
      const decided = requestsReceived.accepted + requestsReceived.rejected
      return {
        posts: postsCounts,
        requestsReceived,
        requestsSent,
        // Of the requests on the user's posts they answered, the share they accepted
        // (0 to 1, two decimals); null before any was answered.
        acceptanceRate:
          decided === 0 ? null : Math.round((requestsReceived.accepted / decided) * 100) / 100,
        daily,
      }
    },
  }
}

export type JobsStats = ReturnType<typeof createJobsStats>
