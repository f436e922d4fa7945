import type {
  CounterOfferBody,
  JobRequestDecided,
  JobRequestTerms,
  ReceivedJobRequest,
  ReceivedPeopleRequest,
  SentJobRequest,
  SentPeopleRequest,
} from '@marketplace/contracts/api'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import { api } from '@/lib/api'

const byId = (id: string) => encodeURIComponent(id)

/** Requests on posts (services/jobs) and to people (services/people). */
export const requestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getReceivedPostRequests: build.query<ReceivedJobRequest[], string>({
      query: (userId) => `/api/jobs/user/${byId(userId)}/received-requests`,
      providesTags: ['PostRequests'],
    }),
    getSentPostRequests: build.query<SentJobRequest[], string>({
      query: (userId) => `/api/jobs/user/${byId(userId)}/sent-requests`,
      providesTags: ['PostRequests'],
    }),
    decidePostRequest: build.mutation<JobRequestDecided, { id: string; status: RequestStatus }>({
      query: ({ id, status }) => ({
        url: `/api/jobs/requests/${byId(id)}`,
        method: 'PATCH',
        body: { status },
      }),
      // Accepting changes who may see a post's hidden fields.
      invalidatesTags: ['PostRequests', 'Post', 'Stats', 'Ratings'],
    }),
    /** The owner's one counter-offer on a pending request. */
    counterPostRequest: build.mutation<JobRequestTerms, { id: string } & CounterOfferBody>({
      query: ({ id, ...body }) => ({
        url: `/api/jobs/requests/${byId(id)}/counter-offer`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['PostRequests'],
    }),
    /** The worker's answer to it: accepted makes it the request's offer. */
    answerCounterOffer: build.mutation<
      JobRequestTerms,
      { id: string; answer: 'accepted' | 'declined' }
    >({
      query: ({ id, answer }) => ({
        url: `/api/jobs/requests/${byId(id)}/counter-offer`,
        method: 'PATCH',
        body: { answer },
      }),
      invalidatesTags: ['PostRequests'],
    }),
    deletePostRequest: build.mutation<void, string>({
      query: (id) => ({ url: `/api/jobs/requests/${byId(id)}`, method: 'DELETE' }),
      invalidatesTags: ['PostRequests', 'Post', 'Stats', 'Ratings'],
    }),
    getSentPeopleRequests: build.query<SentPeopleRequest[], void>({
      query: () => '/api/people/requests/sent',
      providesTags: ['PeopleRequests'],
    }),
    getReceivedPeopleRequests: build.query<ReceivedPeopleRequest[], void>({
      query: () => '/api/people/requests/received',
      providesTags: ['PeopleRequests'],
    }),
    decidePeopleRequest: build.mutation<
      ReceivedPeopleRequest,
      { id: string; status: RequestStatus }
    >({
      query: ({ id, status }) => ({
        url: `/api/people/requests/${byId(id)}`,
        method: 'PATCH',
        body: { status },
      }),
      invalidatesTags: ['PeopleRequests', 'Stats'],
    }),
    deleteSentPeopleRequest: build.mutation<void, string>({
      query: (id) => ({ url: `/api/people/requests/${byId(id)}`, method: 'DELETE' }),
      invalidatesTags: ['PeopleRequests', 'Stats'],
    }),
    deleteReceivedPeopleRequest: build.mutation<void, string>({
      query: (id) => ({ url: `/api/people/requests/received/${byId(id)}`, method: 'DELETE' }),
      invalidatesTags: ['PeopleRequests', 'Stats'],
    }),
  }),
})

export const {
  useGetReceivedPostRequestsQuery,
  useGetSentPostRequestsQuery,
  useDecidePostRequestMutation,
  useDeletePostRequestMutation,
  useCounterPostRequestMutation,
  useAnswerCounterOfferMutation,
  useGetSentPeopleRequestsQuery,
  useGetReceivedPeopleRequestsQuery,
  useDecidePeopleRequestMutation,
  useDeleteSentPeopleRequestMutation,
  useDeleteReceivedPeopleRequestMutation,
} = requestsApi
