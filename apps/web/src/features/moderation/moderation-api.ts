import type { ModerationQueue, ModerationReport } from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/** What a moderator decides; a report the content's deletion closed says 'target-deleted'. */
export type ModerationAction = Exclude<ModerationReport['action'], 'target-deleted' | null>

/** The moderation queue of services/reports (docs/favorites-and-reports.md "Moderation"). */
export const moderationApi = api.injectEndpoints({
  endpoints: (build) => ({
    getModerationQueue: build.query<ModerationQueue, { page: number }>({
      query: ({ page }) => ({ url: '/api/reports', params: { status: 'open', page } }),
      providesTags: ['Reports'],
    }),
    resolveReport: build.mutation<ModerationReport, { id: string; action: ModerationAction }>({
      query: ({ id, action }) => ({
        url: `/api/reports/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: { action },
      }),
      // A take-down removes the content from the feeds, search and favorites.
      invalidatesTags: (_result, _error, { action }) =>
        action === 'take-down'
          ? ['Reports', 'Feed', 'Categories', 'Post', 'Person', 'FavoritePosts', 'FavoritePeople']
          : ['Reports'],
    }),
  }),
})

export const { useGetModerationQueueQuery, useResolveReportMutation } = moderationApi
