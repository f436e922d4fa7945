import type { Db } from 'mongodb'
import type { JobsRequestCounts, JobsStats as JobsStatsView } from '@marketplace/contracts/api'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import {
  ACTIVITY_DAYS_DEFAULT,
  createRequestActivity,
  type RequestActivity,
} from '@marketplace/service-kit'
import { createPostsRepository, type PostsRepository } from '../posts/posts-repository'
import { createRequestStore, type RequestStore } from '@marketplace/request-lifecycle'
import { JOB_REQUESTS, type JobRequestDocument } from '../requests/request-document'

const STATUSES: RequestStatus[] = ['pending', 'accepted', 'rejected']

/**
 * GET /api/jobs/stats/{userId} (docs/ratings-and-stats.md): the user's posts, online (live:
 * what the feed shows) or not, the requests received on them and the requests the user
 * sent. Counted from the user's lists of posts and requests (their repositories keep them,
 * read by `_id`, so no index beyond the key is needed), so a count never reads other users' posts or requests. The
 * daily series comes from the user's activity buckets, read by `_id`.
 */
export function createJobsStats(
  db: Db,
  {
    now = () => new Date(),
    activity = createRequestActivity(db, now),
    // Read only: the store's lists, never its writes (their outbox notices go nowhere).
    requests = createRequestStore(db, JOB_REQUESTS, () => {}),
    posts = createPostsRepository(db, { notifyOutbox: () => {}, postChanged: () => {} }),
  }: {
    now?: () => Date
    activity?: RequestActivity
    requests?: Pick<RequestStore<JobRequestDocument>, 'sent' | 'received'>
    posts?: Pick<PostsRepository, 'findByOwner'>
  } = {},
) {
  /**
   * Counted from the user's list of requests (read by `_id`): a count on the
   * requests collection reads every user's requests on the local server.
   */
  function requestCounts(mine: JobRequestDocument[]): JobsRequestCounts {
    const [pending, accepted, rejected] = STATUSES.map(
      (status) => mine.filter((request) => request.status === status).length,
    ) as [number, number, number]
    return { total: pending + accepted + rejected, pending, accepted, rejected }
  }

  /**
   * The accepted requests with an agreed amount, on one side (docs/post-requests.md): fixed
   * amounts are summed (in cents, then shown in the currency); per-hour ones only counted.
   * From the same list as the counts, so the figures cost no read of their own.
   */
  function agreedOn(mine: JobRequestDocument[]) {
    const agreed = mine.filter((request) => request.status === 'accepted' && request.offer)
    const fixedCents = agreed
      .filter((request) => request.offer!.unit === 'fixed')
      .reduce((sum, request) => sum + request.offer!.cents, 0)
    return {
      requests: agreed.length,
      fixedTotal: fixedCents / 100,
      perHourRequests: agreed.filter((request) => request.offer!.unit === 'hour').length,
    }
  }

  /** Counted from the owner's list of posts (read by `_id`), live as post-document.ts says. */
  async function postCounts(userId: string) {
    const mine = await posts.findByOwner(userId)
    const at = now().getTime()
    const online = mine.filter(
      (post) =>
        post.isOnline &&
        !post.takenDown &&
        !post.filledAt &&
        (post.expiresAt === null || post.expiresAt.getTime() > at),
    ).length
    return { total: mine.length, online, offline: mine.length - online }
  }

  return {
    async of(userId: string, days = ACTIVITY_DAYS_DEFAULT): Promise<JobsStatsView> {
      const [postsCounts, received, sent, daily] = await Promise.all([
        postCounts(userId),
        requests.received(userId),
        requests.sent(userId),
        activity.daily(userId, days),
      ])
      const [requestsReceived, requestsSent] = [requestCounts(received), requestCounts(sent)]
      const [agreedReceived, agreedSent] = [agreedOn(received), agreedOn(sent)]
      const decided = requestsReceived.accepted + requestsReceived.rejected
      return {
        posts: postsCounts,
        requestsReceived,
        requestsSent,
        // Of the requests on the user's posts they answered, the share they accepted
        // (0 to 1, two decimals); null before any was answered.
        acceptanceRate:
          decided === 0 ? null : Math.round((requestsReceived.accepted / decided) * 100) / 100,
        // Only once an offer was agreed on either side: the answer stays as it was otherwise.
        ...(agreedReceived.requests + agreedSent.requests > 0
          ? { agreed: { received: agreedReceived, sent: agreedSent } }
          : {}),
        daily,
      }
    },
  }
}

export type JobsStats = ReturnType<typeof createJobsStats>
