import { queryTerms } from './search-words'

/** At most this many saved searches per user (Settings lists them all on one page). */
export const MAX_SAVED_SEARCHES = 20
/** The distances a saved search may keep, in miles (the feed's "within" choices). */
export const SAVED_SEARCH_DISTANCES_MILES = [5, 10, 25, 50] as const

/** How a saved search's matches are e-mailed: at once, in one mail a day, or not at all. */
export type SavedSearchEmail = 'immediate' | 'daily' | 'off'
export const SAVED_SEARCH_EMAILS: readonly SavedSearchEmail[] = ['immediate', 'daily', 'off']

/**
 * What a saved search looks for, read from the home page's URL query (`feed=job&category=Moving
 * &payment=Cash&search=piano&near=Austin, TX&within=25`). "All" and empty values mean no
 * filter, as in the feed. Unknown keys are dropped (the query may carry `page`, `sort`, `view`).
 */
export interface SavedSearchCriteria {
  feedType: 'job' | 'worker'
  category: string | null
  location: string | null
  payment: string | null
  contact: string | null
  /** The search box's words, lower-case, as the feed indexes a post's words. */
  words: string[]
  near: string | null
  withinMiles: number | null
}

export class SavedSearchQueryError extends Error {}

const MAX_QUERY_LENGTH = 1000
const MAX_VALUE_LENGTH = 100

/** The criteria of a URL query, or a SavedSearchQueryError saying what is wrong with it. */
export function savedSearchCriteria(query: string): SavedSearchCriteria {
  if (query.length > MAX_QUERY_LENGTH)
    throw new SavedSearchQueryError(
      `The search is too long (at most ${MAX_QUERY_LENGTH} characters)`,
    )
  const params = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query)
  const value = (key: string): string | null => {
    const raw = params.get(key)?.trim() ?? ''
    if (raw.length > MAX_VALUE_LENGTH)
      throw new SavedSearchQueryError(`${key} is too long (at most ${MAX_VALUE_LENGTH} characters)`)
    return raw === '' || raw.toLowerCase() === 'all' ? null : raw
  }
  const feed = value('feed') ?? 'job'
  if (feed !== 'job' && feed !== 'worker')
    throw new SavedSearchQueryError('feed must be job or worker')
  const near = value('near')
  const withinText = value('within')
  let withinMiles: number | null = null
  if (withinText !== null) {
    withinMiles = Number(withinText)
    if (!(SAVED_SEARCH_DISTANCES_MILES as readonly number[]).includes(withinMiles))
      throw new SavedSearchQueryError(
        `within must be one of ${SAVED_SEARCH_DISTANCES_MILES.join(', ')} miles`,
      )
    if (near === null) throw new SavedSearchQueryError('A distance needs a place (near)')
  }
  return {
    feedType: feed,
    category: value('category'),
    location: value('location'),
    payment: value('payment'),
    contact: value('contact'),
    words: queryTerms(value('search') ?? value('q') ?? ''),
    near,
    withinMiles: near === null ? null : (withinMiles ?? 25),
  }
}

/** The query string of criteria, in one order, so equal searches read alike. */
export function savedSearchQueryOf(criteria: SavedSearchCriteria): string {
  const params = new URLSearchParams({ feed: criteria.feedType })
  for (const key of ['category', 'location', 'payment', 'contact', 'near'] as const) {
    const value = criteria[key]
    if (value !== null) params.set(key, value)
  }
  if (criteria.withinMiles !== null) params.set('within', String(criteria.withinMiles))
  if (criteria.words.length > 0) params.set('search', criteria.words.join(' '))
  return params.toString()
}
