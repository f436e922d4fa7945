import { api } from '@/lib/api'
import type { ReportReason } from '@marketplace/contracts/marketplace'

/** Reporting (spec 1 §7): a post by postId, a person by reportedId; each once per user. */
export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    reportPost: build.mutation<
      unknown,
      { postId: string; type: ReportReason; description: string }
    >({
      query: (body) => ({ url: '/api/reports/posts', method: 'POST', body }),
      invalidatesTags: ['Reports'],
    }),
    reportPerson: build.mutation<
      unknown,
      { reportedId: string; type: ReportReason; description: string }
    >({
      query: (body) => ({ url: '/api/reports/people', method: 'POST', body }),
      invalidatesTags: ['Reports'],
    }),
  }),
})

export const { useReportPostMutation, useReportPersonMutation } = reportsApi
