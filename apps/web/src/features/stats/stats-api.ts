import { api } from '@/lib/api'

/** Requests of one kind by status (docs/ratings-and-stats.md). */
export interface StatusCounts {
  total: number
  pending: number
  accepted: number
  rejected: number
}

/** GET /api/jobs/stats/{userId}: posts, requests on them, requests sent. */
export interface JobsStats {
  posts: { total: number; online: number; offline: number }
  requestsReceived: StatusCounts
  requestsSent: StatusCounts
  /** accepted / (accepted + rejected) of the requests received, 0 to 1; null before any. */
  acceptanceRate: number | null
}

/** GET /api/favorites/stats/{userId}: how often others saved the user's posts, or the user. */
export interface FavoritesStats {
  postFavoritesReceived: number
  peopleFavoritesReceived: number
}

/** GET /api/people/stats/{userId}: people requests and the user's rating as a worker. */
export interface PeopleStats {
  peopleRequestsSent: StatusCounts
  peopleRequestsReceived: StatusCounts
  rating: { average: number | null; count: number }
}

const statsPath = (service: 'jobs' | 'favorites' | 'people', userId: string) =>
  `/api/${service}/stats/${encodeURIComponent(userId)}`

/** The three services' own figures; each route answers the caller's own only. */
export const statsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getJobsStats: build.query<JobsStats, string>({
      query: (userId) => statsPath('jobs', userId),
      providesTags: ['Stats'],
    }),
    getFavoritesStats: build.query<FavoritesStats, string>({
      query: (userId) => statsPath('favorites', userId),
      providesTags: ['Stats'],
    }),
    getPeopleStats: build.query<PeopleStats, string>({
      query: (userId) => statsPath('people', userId),
      providesTags: ['Stats'],
    }),
  }),
})

export const { useGetJobsStatsQuery, useGetFavoritesStatsQuery, useGetPeopleStatsQuery } = statsApi
