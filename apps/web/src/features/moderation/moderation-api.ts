import { api } from '@/lib/api'
import type { Pagination, Person, Post } from '@/lib/types'
import type { ReportReason } from '@marketplace/contracts/marketplace'

/** One report as the queue shows it (services/reports report-views.ts moderationView). */
export interface ModerationReport {
  _id: string
  targetType: 'post' | 'person'
  targetId: string
  type: ReportReason
  reasonLabel: string
  description: string
  status: 'open' | 'closed'
  reporter: { _id: string; name: string }
  /** The content as the public sees it; null when it is gone. */
  target: { post: Post; takenDown: boolean } | { person: Person; takenDown: boolean } | null
  openReportsOnTarget: number
  createdAt: string
  ageHours: number
  reviewDueAt: string
  overdue: boolean
  closedAt: string | null
  closedBy: string | null
  action: string | null
}

export interface ModerationQueue {
  reports: ModerationReport[]
  pagination: Pagination
  reviewWithinHours: number
  overdue: number
}

export type ModerationAction = 'dismiss' | 'take-down'

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
