import { Value } from '@sinclair/typebox/value'
import {
  ALL_FILTER,
  FEED_DEFAULTS,
  FEED_PAGE_SIZE,
  FeedTypeSchema,
  FIRST_PAGE,
  isFeedType,
  isSortOrder,
  MAX_PAGE_SIZE,
  MOBILE_BREAKPOINT_PX,
  NOTIFICATION_PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
  SEARCH_RESULT_LIMIT,
  SORT_ORDERS,
  SortOrderSchema,
  ViewModeSchema,
} from './feed'

describe('feed constants', () => {
  it('defaults to posts, All, Recent, Grid, page 1', () => {
    expect(FEED_DEFAULTS).toEqual({
      feedType: 'job',
      category: 'All',
      sort: 'desc',
      view: 'grid',
      location: 'All',
      payment: 'All',
      contact: 'All',
      page: 1,
    })
    expect(ALL_FILTER).toBe('All')
    expect(FIRST_PAGE).toBe(1)
  })

  it('sends desc for Recent and asc for Oldest', () => {
    expect(SORT_ORDERS).toEqual({ recent: 'desc', oldest: 'asc' })
    expect(Value.Check(SortOrderSchema, 'asc')).toBe(true)
    expect(Value.Check(SortOrderSchema, 'recent')).toBe(false)
    expect(isSortOrder('desc')).toBe(true)
    expect(isSortOrder('up')).toBe(false)
  })

  it('has job and worker feeds, list and grid views', () => {
    expect(Value.Check(FeedTypeSchema, 'worker')).toBe(true)
    expect(Value.Check(FeedTypeSchema, 'people')).toBe(false)
    expect(isFeedType('job')).toBe(true)
    expect(Value.Check(ViewModeSchema, 'list')).toBe(true)
    expect(Value.Check(ViewModeSchema, 'table')).toBe(false)
  })

  it('has the page sizes and search limits', () => {
    expect(FEED_PAGE_SIZE).toBe(12)
    expect(MAX_PAGE_SIZE).toBeGreaterThanOrEqual(FEED_PAGE_SIZE)
    expect(NOTIFICATION_PAGE_SIZE).toBe(10)
    expect(SEARCH_RESULT_LIMIT).toBe(10)
    expect(SEARCH_DEBOUNCE_MS).toBe(300)
    expect(MOBILE_BREAKPOINT_PX).toBe(768)
  })
})
