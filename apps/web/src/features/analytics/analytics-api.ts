import { api } from '@/lib/api'

/** One UTC day of product analytics (services/analytics, GET /api/analytics/daily). */
export interface AnalyticsDay {
  date: string
  pageViews: number
  mobile: number
  desktop: number
  clientErrors: number
  helpViews: number
  supportCreated: number
  supportFailed: number
  profilesSaved: number
}

/** The Analytics screen's figures: every day of the period, oldest first, and its top lists. */
export interface DailyAnalytics {
  from: string
  to: string
  days: AnalyticsDay[]
  totals: Omit<AnalyticsDay, 'date'>
  devices: Array<{ deviceType: string; count: number }>
  topRoutes: Array<{ route: string; count: number }>
  topErrors: Array<{ message: string; count: number }>
  helpPages: Array<{ path: string; count: number }>
  profileCompletion: Array<{ filled: number; of: number; count: number }>
}

/** docs/analytics.md "Read side": administrators and editors only. */
export const analyticsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDailyAnalytics: build.query<DailyAnalytics, { days: number }>({
      query: ({ days }) => ({ url: '/api/analytics/daily', params: { days } }),
    }),
  }),
})

export const { useGetDailyAnalyticsQuery } = analyticsApi
