import type { FavoritesStats, JobsStats, PeopleStatsView } from '@marketplace/contracts/api'
import { api } from '@/lib/api'

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
    getPeopleStats: build.query<PeopleStatsView, string>({
      query: (userId) => statsPath('people', userId),
      providesTags: ['Stats'],
    }),
  }),
})

export const { useGetJobsStatsQuery, useGetFavoritesStatsQuery, useGetPeopleStatsQuery } = statsApi
