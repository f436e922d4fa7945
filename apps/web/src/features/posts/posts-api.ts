import type {
  JobPost,
  JobPostCreateBody,
  JobPostList,
  JobPostUpdateBody,
} from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/**
 * What a change to one post makes stale: the post itself, the owner's list, the feed, the
 * category counts and the stats (an edit, a fill or a relist moves the post in or out of each).
 */
const tagsOfAChangedPost = (id: string) =>
  [{ type: 'Post' as const, id }, 'MyPosts', 'Feed', 'Categories', 'Stats'] as const

/**
 * Posts, as services/jobs serves them (docs/posts.md).
 * One post by id is lib/entities-api's getPost, which the writes here keep fresh by its tag.
 */
export const postsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMyPosts: build.query<JobPostList, void>({
      query: () => '/api/jobs/my-jobs',
      // The product's contract: "a list, or an object with jobs" (services/jobs answers the list).
      transformResponse: (body: JobPostList | { jobs: JobPostList }) =>
        Array.isArray(body) ? body : (body.jobs ?? []),
      providesTags: ['MyPosts'],
    }),
    /** The creation form's names (where, when, howmuch, payment). */
    createPost: build.mutation<JobPost, JobPostCreateBody>({
      query: (body) => ({ url: '/api/jobs', method: 'POST', body }),
      invalidatesTags: ['MyPosts', 'Feed', 'Categories', 'Stats'],
    }),
    /** Every field but the title, or isOnline alone for the toggle. */
    updatePost: build.mutation<JobPost, { id: string; changes: JobPostUpdateBody }>({
      query: ({ id, changes }) => ({
        url: `/api/jobs/${encodeURIComponent(id)}`,
        method: 'PUT',
        body: changes,
      }),
      invalidatesTags: (_result, _error, { id }) => tagsOfAChangedPost(id),
    }),
    /** Mark filled (docs/posts.md, "The life of a post"): out of the feed, no more requests. */
    fillPost: build.mutation<JobPost, string>({
      query: (id) => ({ url: `/api/jobs/${encodeURIComponent(id)}/fill`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => tagsOfAChangedPost(id),
    }),
    /** Relist a filled or expired post (or one about to expire) for 30 days, at the top. */
    relistPost: build.mutation<JobPost, string>({
      query: (id) => ({ url: `/api/jobs/${encodeURIComponent(id)}/relist`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => tagsOfAChangedPost(id),
    }),
    deletePost: build.mutation<void, string>({
      query: (id) => ({ url: `/api/jobs/${encodeURIComponent(id)}`, method: 'DELETE' }),
      // A deleted post also leaves its requests and everyone's favorites.
      invalidatesTags: (_result, _error, id) => [
        ...tagsOfAChangedPost(id),
        'PostRequests',
        'FavoritePosts',
      ],
    }),
  }),
})

export const {
  useGetMyPostsQuery,
  useCreatePostMutation,
  useUpdatePostMutation,
  useDeletePostMutation,
  useFillPostMutation,
  useRelistPostMutation,
} = postsApi
