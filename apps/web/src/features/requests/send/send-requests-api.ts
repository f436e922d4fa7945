import type {
  JobRequestCreateBody,
  JobRequestCreated,
  PeopleRequestSendBody,
  SentPeopleRequest,
} from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/** Sending requests: to a post as a worker, to a person for one of one's posts. */
export const sendRequestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendPostRequest: build.mutation<
      JobRequestCreated,
      Required<Pick<JobRequestCreateBody, 'postID'>> & Pick<JobRequestCreateBody, 'offer'>
    >({
      query: (body) => ({ url: '/api/jobs/requests', method: 'POST', body }),
      invalidatesTags: ['PostRequests', 'Stats'],
    }),
    sendPersonRequest: build.mutation<SentPeopleRequest, Required<PeopleRequestSendBody>>({
      query: (body) => ({ url: '/api/people/requests', method: 'POST', body }),
      invalidatesTags: ['PeopleRequests', 'Stats'],
    }),
  }),
})

export const { useSendPostRequestMutation, useSendPersonRequestMutation } = sendRequestsApi
