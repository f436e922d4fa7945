import type { Static } from '@sinclair/typebox'
import { isOneOf, literalUnion } from './literal-union'

/** The home feed shows posts (job) or people (worker); job is the default. */
export const FEED_TYPES = ['job', 'worker'] as const
export const FeedTypeSchema = literalUnion(FEED_TYPES)
export type FeedType = Static<typeof FeedTypeSchema>
export const isFeedType = (value: unknown): value is FeedType => isOneOf(FEED_TYPES, value)

/** Sort Recent sends desc, Oldest sends asc. */
export const SORT_ORDERS = { recent: 'desc', oldest: 'asc' } as const
export const SortOrderSchema = literalUnion(['desc', 'asc'] as const)
export type SortOrder = Static<typeof SortOrderSchema>
export const isSortOrder = (value: unknown): value is SortOrder =>
  isOneOf(['desc', 'asc'] as const, value)

export const VIEW_MODES = ['list', 'grid'] as const
export const ViewModeSchema = literalUnion(VIEW_MODES)
export type ViewMode = Static<typeof ViewModeSchema>

/** The "no filter" value of category, location, payment and contact; never sent as a query. */
export const ALL_FILTER = 'All'

/** Defaults, also what Reset Filters returns to. */
export const FEED_DEFAULTS = {
  feedType: 'job',
  category: ALL_FILTER,
  sort: SORT_ORDERS.recent,
  view: 'grid',
  location: ALL_FILTER,
  payment: ALL_FILTER,
  contact: ALL_FILTER,
  page: 1,
} as const satisfies {
  feedType: FeedType
  category: string
  sort: SortOrder
  view: ViewMode
  location: string
  payment: string
  contact: string
  page: number
}

/** Pages are numbered from 1. */
export const FIRST_PAGE = 1

/**
 * Feed page size is not given by the product; we chose 12 because it fills a grid of 2, 3 or
 * 4 columns without a ragged last row. Used by both the jobs and the people feeds.
 */
export const FEED_PAGE_SIZE = 12

/** Upper bound a service accepts for a `limit` query, so one call cannot dump a collection. */
export const MAX_PAGE_SIZE = 50

/** Search: debounce 300 ms, 10 results per request. */
export const SEARCH_DEBOUNCE_MS = 300
export const SEARCH_RESULT_LIMIT = 10

/** Notifications are fetched 10 per page. */
export const NOTIFICATION_PAGE_SIZE = 10

/** Mobile layout applies at widths of 768 px or less. */
export const MOBILE_BREAKPOINT_PX = 768
