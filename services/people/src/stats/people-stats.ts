import type { Db } from 'mongodb'
import type { PeopleStatsView } from '@marketplace/contracts/api'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import {
  type IndexDefinition,
  ACTIVITY_DAYS_DEFAULT,
  type RequestActivity,
} from '@marketplace/service-kit'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import { ratingSummary } from '../ratings/rating-views'
import {
  PEOPLE_REQUESTS_COLLECTION,
  type PeopleRequestDocument,
} from '../requests/people-request-document'

/** Counts per status, so each is an index-only count (equality on both keys). */
export const peopleStatsIndexes: IndexDefinition[] = [
  {
    collection: PEOPLE_REQUESTS_COLLECTION,
    keys: { ownerId: 1, status: 1 },
    options: { name: 'sent_by_status' },
  },
  {
    collection: PEOPLE_REQUESTS_COLLECTION,
    keys: { workerId: 1, status: 1 },
    options: { name: 'received_by_status' },
  },
]

const STATUSES: RequestStatus[] = ['pending', 'accepted', 'rejected']

export type StatusCounts = Record<RequestStatus | 'total', number>

/**
 * GET /api/people/stats/{userId}: the people requests the user sent (as a post owner) and
 * received (as a worker), and their rating as a worker. Read-only counts on the people
 * requests collection (its repository writes it); the rating is on the profile already;
 * the daily series comes from the user's activity buckets, read by `_id`.
 */
export function createPeopleStats(
  db: Db,
  deps: { profiles: ProfilesRepository; activity: RequestActivity },
) {
  const requests = db.collection<PeopleRequestDocument>(PEOPLE_REQUESTS_COLLECTION)

  async function countsBy(side: 'ownerId' | 'workerId', userId: string): Promise<StatusCounts> {
    // One count per status rather than a $group: FerretDB's aggregation is limited
    // (docs/local-infrastructure.md), and each count is served by the index above.
    const counts = await Promise.all(
      STATUSES.map((status) => requests.countDocuments({ [side]: userId, status })),
    )
    const [pending, accepted, rejected] = counts as [number, number, number]
    return { total: pending + accepted + rejected, pending, accepted, rejected }
  }

  return {
    async of(userId: string, days = ACTIVITY_DAYS_DEFAULT): Promise<PeopleStatsView> {
      const [peopleRequestsSent, peopleRequestsReceived, profile, daily] = await Promise.all([
        countsBy('ownerId', userId),
        countsBy('workerId', userId),
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
