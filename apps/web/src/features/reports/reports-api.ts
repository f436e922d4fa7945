import type { ReportPersonBody, ReportPostBody, SubmittedReport } from '@marketplace/contracts/api'
import type { ReportReason } from '@marketplace/contracts/marketplace'
import { api } from '@/lib/api'

/**
 * The contract takes any reason text (the service answers a wrong one with the product's
 * message); the web sends one of the list.
 */
type WithReason<Body> = Required<Body> & { type: ReportReason }

/** Reporting: a post by postId, a person by reportedId; each once per user. */
export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    reportPost: build.mutation<SubmittedReport, WithReason<ReportPostBody>>({
      query: (body) => ({ url: '/api/reports/posts', method: 'POST', body }),
      invalidatesTags: ['Reports'],
    }),
    reportPerson: build.mutation<SubmittedReport, WithReason<ReportPersonBody>>({
      query: (body) => ({ url: '/api/reports/people', method: 'POST', body }),
      invalidatesTags: ['Reports'],
    }),
  }),
})

export const { useReportPostMutation, useReportPersonMutation } = reportsApi
