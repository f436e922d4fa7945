import { api } from '@/lib/api'

/** What POST /api/jobs/requests answers (services/jobs requests-routes.ts). */
export interface SentPostRequest {
  _id: string
  postId: string
  status: string
  createdAt: string
}

/** Sending requests (spec 1 §7): to a post as a worker, to a person for one of one's posts. */
export const sendRequestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendPostRequest: build.mutation<SentPostRequest, { postID: string }>({
      query: (body) => ({ url: '/api/jobs/requests', method: 'POST', body }),
      invalidatesTags: ['PostRequests', 'Stats'],
    }),
    sendPersonRequest: build.mutation<unknown, { postID: string; requestedID: string }>({
      query: (body) => ({ url: '/api/people/requests', method: 'POST', body }),
      invalidatesTags: ['PeopleRequests', 'Stats'],
    }),
  }),
})

export const { useSendPostRequestMutation, useSendPersonRequestMutation } = sendRequestsApi
