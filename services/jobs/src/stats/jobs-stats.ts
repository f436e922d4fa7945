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
import { JOB_REQUESTS_COLLECTION, type JobRequestDocument } from '../requests/request-document'

/** Every count below is an equality (then range) on one of these. */
export const jobsStatsIndexes: IndexDefinition[] = [
  {
    collection: POSTS_COLLECTION,
    keys: { userID: 1, isOnline: 1, takenDown: 1, expiresAt: 1 },
    options: { name: 'owner_live' },
  },
  {
    collection: JOB_REQUESTS_COLLECTION,
    keys: { ownerId: 1, status: 1 },
    options: { name: 'received_by_status' },
  },
  {
    collection: JOB_REQUESTS_COLLECTION,
    keys: { requesterId: 1, status: 1 },
    options: { name: 'sent_by_status' },
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
  }: { now?: () => Date; activity?: RequestActivity } = {},
) {
  const posts = db.collection<PostDocument>(POSTS_COLLECTION)
  const requests = db.collection<JobRequestDocument>(JOB_REQUESTS_COLLECTION)

  async function requestCounts(
    side: 'ownerId' | 'requesterId',
    userId: string,
  ): Promise<JobsRequestCounts> {
    const counts = await Promise.all(
      STATUSES.map((status) => requests.countDocuments({ [side]: userId, status })),
    )
    const [pending, accepted, rejected] = counts as [number, number, number]
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
        requestCounts('ownerId', userId),
        requestCounts('requesterId', userId),
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
