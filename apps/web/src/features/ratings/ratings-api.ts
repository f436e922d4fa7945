import { api } from '@/lib/api'

/** A rating as its author sees it (docs/ratings-and-stats.md). */
export interface WorkerRating {
  stars: number
  comment: string
  createdAt: string
  updatedAt: string
  /** Until when the rating can still be changed (14 days after it was first given). */
  editableUntil: string
}

/** One accepted request on the caller's posts, with the worker and the rating given. */
export interface RateableRequest {
  requestId: string
  status: 'accepted'
  post: { _id: string; title: string }
  worker: { _id: string; name: string; profilePicture: string | null; title: string }
  rating: WorkerRating | null
}

export interface SavedRating extends WorkerRating {
  _id: string
  requestId: string
  workerId: string
}

/** services/people "Rate your workers". */
export const ratingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRateableRequests: build.query<RateableRequest[], void>({
      query: () => '/api/people/ratings/rateable',
      providesTags: ['Ratings'],
    }),
    rateWorker: build.mutation<SavedRating, { requestId: string; stars: number; comment: string }>({
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
