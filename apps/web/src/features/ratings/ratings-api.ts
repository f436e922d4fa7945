import type { RateableRequest, SavedWorkerRating } from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/** services/people "Rate your workers". */
export const ratingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRateableRequests: build.query<RateableRequest[], void>({
      query: () => '/api/people/ratings/rateable',
      providesTags: ['Ratings'],
    }),
    // The contract leaves stars and comment untyped (the service answers a wrong value with
    // the ratings' own message); the form sends a number and text.
    rateWorker: build.mutation<
      SavedWorkerRating,
      { requestId: string; stars: number; comment: string }
    >({
      query: ({ requestId, ...body }) => ({
        url: `/api/people/ratings/${encodeURIComponent(requestId)}`,
        method: 'PUT',
        body,
      }),
      // The worker's average shows on their person views and stats.
      invalidatesTags: ['Ratings', 'Person', 'Stats'],
    }),
  }),
})

export const { useGetRateableRequestsQuery, useRateWorkerMutation } = ratingsApi
