import type { Db } from 'mongodb'
import type { PeopleStatsView } from '@marketplace/contracts/api'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import { ACTIVITY_DAYS_DEFAULT, type RequestActivity } from '@marketplace/service-kit'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import { ratingSummary } from '../ratings/rating-views'
import type { PeopleRequestsRepository } from '../requests/people-requests-repository'

const STATUSES: RequestStatus[] = ['pending', 'accepted', 'rejected']

export type StatusCounts = Record<RequestStatus | 'total', number>

/**
 * GET /api/people/stats/{userId}: the people requests the user sent (as a post owner) and
 * received (as a worker), and their rating as a worker. Counted from the user's request
 * lists (the repository keeps them, read by `_id`); the rating is on the profile already;
 * the daily series comes from the user's activity buckets, read by `_id`.
 */
export function createPeopleStats(
  db: Db,
  deps: {
    profiles: ProfilesRepository
    activity: RequestActivity
    requests: Pick<PeopleRequestsRepository, 'sent' | 'received'>
  },
) {
  /**
   * Counted from the user's list of requests (read by `_id`): a count on the
   * requests collection reads every user's requests on the local server.
   */
  async function countsBy(side: 'sent' | 'received', userId: string): Promise<StatusCounts> {
    const mine = await deps.requests[side](userId)
    const [pending, accepted, rejected] = STATUSES.map(
      (status) => mine.filter((request) => request.status === status).length,
    ) as [number, number, number]
    return { total: pending + accepted + rejected, pending, accepted, rejected }
  }

  return {
    async of(userId: string, days = ACTIVITY_DAYS_DEFAULT): Promise<PeopleStatsView> {
      const [peopleRequestsSent, peopleRequestsReceived, profile, daily] = await Promise.all([
        countsBy('sent', userId),
        countsBy('received', userId),
        deps.profiles.findById(userId),
        deps.activity.daily(userId, days),
      ])
      return {
        peopleRequestsSent,
        peopleRequestsReceived,
        rating: ratingSummary(profile),
        daily,
      }
    },
  }
}

export type PeopleStats = ReturnType<typeof createPeopleStats>
