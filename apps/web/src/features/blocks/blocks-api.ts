import type { BlockedUser, BlockedUserList } from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/**
 * Blocking (services/people /api/people/blocks, docs/blocking.md). A block or an unblock makes
 * every list that may show the other person stale: feeds, details, requests, favorites,
 * conversations and notifications are read again, so they disappear (or come back) at once.
 */
const SHOWN_ELSEWHERE = [
  'Feed',
  'Post',
  'Person',
  'PostRequests',
  'PeopleRequests',
  'FavoritePosts',
  'FavoritePeople',
  'Notifications',
  'Conversations',
] as const

export const blocksApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/people/blocks: the people the caller blocked, newest first. */
    getBlocks: build.query<BlockedUser[], void>({
      query: () => '/api/people/blocks',
      transformResponse: (answer: BlockedUserList) => answer.blocks,
      providesTags: ['Blocks'],
    }),
    blockUser: build.mutation<BlockedUser, string>({
      query: (userId) => ({ url: '/api/people/blocks', method: 'POST', body: { userId } }),
      invalidatesTags: ['Blocks', ...SHOWN_ELSEWHERE],
    }),
    unblockUser: build.mutation<void, string>({
      query: (userId) => ({
        url: `/api/people/blocks/${encodeURIComponent(userId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: ['Blocks', ...SHOWN_ELSEWHERE],
    }),
  }),
})

export const { useGetBlocksQuery, useBlockUserMutation, useUnblockUserMutation } = blocksApi
