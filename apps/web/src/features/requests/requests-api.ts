import { api } from '@/lib/api'
import type { RequestStatus } from '@marketplace/contracts/marketplace'

/** GET /api/jobs/user/{userId}/received-requests (services/jobs request-views.ts). */
export interface ReceivedPostRequest {
  _id: string
  status: RequestStatus
  createdAt: string
  updatedAt: string
  requester: {
    _id: string
    name: string
    profilePicture: string | null
    email: string
    isWorker: boolean
    title: string
    skills: string[]
  }
  post: {
    _id: string
    title: string
    location: string
    salary: string
    picture: string | null
    status: 'online' | 'offline'
  }
}

/** GET /api/jobs/user/{userId}/sent-requests: hidden fields are null until accepted. */
export interface SentPostRequest {
  _id: string
  status: RequestStatus
  createdAt: string
  post: {
    _id: string
    title: string
    location: string | null
    salary: string
    jobPicture: string | null
    displayLocation: boolean
    displayContact: boolean
    contact: string | null
    infos: string
    owner: { _id: string; name: string }
  }
}

interface PeopleRequestBase {
  _id: string
  status: RequestStatus
  createdAt: string
  updatedAt: string
  post: { _id: string; title: string }
}

/** GET /api/people/requests/sent (services/people people-request-views.ts). */
export interface SentPeopleRequest extends PeopleRequestBase {
  requestedPerson: { _id: string; name: string }
}

/** GET /api/people/requests/received. */
export interface ReceivedPeopleRequest extends PeopleRequestBase {
  requester: { _id: string; name: string }
}

const byId = (id: string) => encodeURIComponent(id)

/** Requests on posts (services/jobs) and to people (services/people), spec 2 §7. */
export const requestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getReceivedPostRequests: build.query<ReceivedPostRequest[], string>({
      query: (userId) => `/api/jobs/user/${byId(userId)}/received-requests`,
      providesTags: ['PostRequests'],
    }),
    getSentPostRequests: build.query<SentPostRequest[], string>({
      query: (userId) => `/api/jobs/user/${byId(userId)}/sent-requests`,
      providesTags: ['PostRequests'],
    }),
    decidePostRequest: build.mutation<
      { _id: string; status: RequestStatus },
      { id: string; status: RequestStatus }
    >({
      query: ({ id, status }) => ({
        url: `/api/jobs/requests/${byId(id)}`,
        method: 'PATCH',
        body: { status },
      }),
      // Accepting changes who may see a post's hidden fields.
      invalidatesTags: ['PostRequests', 'Post', 'Stats', 'Ratings'],
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
  useGetSentPeopleRequestsQuery,
  useGetReceivedPeopleRequestsQuery,
  useDecidePeopleRequestMutation,
  useDeleteSentPeopleRequestMutation,
  useDeleteReceivedPeopleRequestMutation,
} = requestsApi
