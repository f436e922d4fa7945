import { api } from '@/lib/api'
import type { Post } from '@/lib/types'

/** The creation form's names (spec 1 §3), mapped onto a post by services/jobs. */
export interface NewPostInput {
  title: string
  where: string
  when?: string
  howmuch?: string
  payment?: string[]
  contact?: string
  infos?: string
  expirationDate?: string | null
  displayLocation: boolean
  displayContact: boolean
  jobPicture?: string | null
}

/** spec 2 §7 "Update a post": every field but the title, or isOnline alone for the toggle. */
export type PostChanges =
  | {
      location: string
      jobStartEnd: string
      salary: string
      paymentType: string[]
      contact: string
      infos: string
      displayLocation: boolean
      displayContact: boolean
    }
  | { isOnline: boolean }

/**
 * Posts, as services/jobs serves them (docs/posts.md).
 * One post by id is lib/entities-api's getPost, which the writes here keep fresh by its tag.
 */
export const postsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMyPosts: build.query<Post[], void>({
      query: () => '/api/jobs/my-jobs',
      // spec 1 §7: "a list, or an object with jobs".
      transformResponse: (body: Post[] | { jobs: Post[] }) =>
        Array.isArray(body) ? body : (body.jobs ?? []),
      providesTags: ['MyPosts'],
    }),
    createPost: build.mutation<Post, NewPostInput>({
      query: (body) => ({ url: '/api/jobs', method: 'POST', body }),
      invalidatesTags: ['MyPosts', 'Feed', 'Categories', 'Stats'],
    }),
    updatePost: build.mutation<Post, { id: string; changes: PostChanges }>({
      query: ({ id, changes }) => ({
        url: `/api/jobs/${encodeURIComponent(id)}`,
        method: 'PUT',
        body: changes,
      }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Post', id },
        'MyPosts',
        'Feed',
        'Categories',
        'Stats',
      ],
    }),
    deletePost: build.mutation<void, string>({
      query: (id) => ({ url: `/api/jobs/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'Post', id },
        'MyPosts',
        'Feed',
        'Categories',
        'PostRequests',
        'FavoritePosts',
        'Stats',
      ],
    }),
  }),
})

export const {
  useGetMyPostsQuery,
  useCreatePostMutation,
  useUpdatePostMutation,
  useDeletePostMutation,
} = postsApi
