import {
  ALL_FILTER,
  CATEGORIES,
  CONTACT_OPTIONS,
  PAYMENT_OPTIONS,
} from '@marketplace/contracts/marketplace'
import { DISTANCE_CHOICES_MILES } from '@/features/feed/distance'
import { feedSearchQuery } from '@/features/feed/feed-search-query'
import { initialFeedState, type FeedUrlState } from '@/features/feed/feed-slice'

/** Free texts longer than the feed accepts are not a feed anyone linked to. */
const MAX_TEXT_LENGTH = 100
const MAX_SEARCH_LENGTH = 200
/** No feed has more pages than this; a larger number is junk. */
const MAX_PAGE = 10_000

/**
 * The URL query of the feed's state: what a saved search keeps (feedSearchQuery), plus the
 * sort when not Recent and the page past the first. The default feed is '' (a bare `/`).
 */
export function feedUrlQuery(feed: FeedUrlState): string {
  const params = new URLSearchParams(feedSearchQuery(feed))
  if (feed.sort !== initialFeedState.sort && (feed.sort !== 'distance' || feed.near.trim()))
    params.set('sort', feed.sort)
  if (feed.page > 1) params.set('page', String(feed.page))
  const query = params.toString()
  return query === `feed=${initialFeedState.feedType}` ? '' : query
}

/** `value` spelt as the one of `choices` it names, case aside, or undefined. */
function oneOf<T extends string>(choices: readonly T[], value: string): T | undefined {
  const lower = value.toLowerCase()
  return choices.find((choice) => choice.toLowerCase() === lower)
}

/**
 * The feed's state read from a URL query (`?feed=job&category=Moving&near=Austin%2C+TX&within=25`).
 * Every key is read on its own: a missing, unknown or bad value is that field's default, never
 * an error (an old link, a hand-edited one, a saved search of another version).
 */
export function feedUrlStateOf(search: string): FeedUrlState {
  const params = new URLSearchParams(search)
  const text = (key: string, max = MAX_TEXT_LENGTH): string => {
    const value = params.get(key)?.trim() ?? ''
    return value.length <= max ? value : ''
  }
  const filter = (key: string, choices?: readonly string[]): string => {
    const value = text(key)
    if (!value || value.toLowerCase() === ALL_FILTER.toLowerCase()) return ALL_FILTER
    if (!choices) return value
    return oneOf(choices, value) ?? ALL_FILTER
  }

  const near = text('near')
  const within = Number(text('within'))
  const sort = oneOf(['desc', 'asc', 'distance'] as const, text('sort'))
  const page = Number(text('page'))
  return {
    feedType: oneOf(['job', 'worker'] as const, text('feed')) ?? initialFeedState.feedType,
    category: filter('category', CATEGORIES),
    location: filter('location'),
    payment: filter('payment', PAYMENT_OPTIONS),
    contact: filter('contact', CONTACT_OPTIONS),
    near,
    within: (DISTANCE_CHOICES_MILES as readonly number[]).includes(within)
      ? within
      : initialFeedState.within,
    // Nearest first needs a place.
    sort: sort && (sort !== 'distance' || near) ? sort : initialFeedState.sort,
    search: text('search', MAX_SEARCH_LENGTH),
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : initialFeedState.page,
  }
}

/** A feed type or category change is a new place to go back from; the rest refine it. */
export function isNewFeed(from: FeedUrlState, to: FeedUrlState): boolean {
  return from.feedType !== to.feedType || from.category !== to.category
}
