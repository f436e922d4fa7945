import { Type } from '@sinclair/typebox'
import {
  ALL_FILTER,
  MAX_PAGE_SIZE,
  SEARCH_RESULT_LIMIT,
  UNCATEGORIZED,
  queryTerms,
} from '@marketplace/contracts/marketplace'
import {
  DISTANCE_CHOICES_MILES,
  isDistanceChoice,
  resolvePlace,
  type Place,
} from '@marketplace/geo'
import { BadRequestError } from '../errors'

/**
 * The query strings of the two public feeds (GET /api/jobs and GET /api/people)
 * and of their category lists, read the same way by both services.
 */
export const FeedQuerystring = Type.Object({
  category: Type.Optional(Type.String({ maxLength: 100 })),
  location: Type.Optional(Type.String({ maxLength: 100 })),
  payment: Type.Optional(Type.String({ maxLength: 100 })),
  contact: Type.Optional(Type.String({ maxLength: 100 })),
  page: Type.Optional(Type.String({ maxLength: 10 })),
  limit: Type.Optional(Type.String({ maxLength: 10 })),
  sort: Type.Optional(Type.String({ maxLength: 10 })),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  after: Type.Optional(Type.String({ maxLength: 100 })),
  near: Type.Optional(Type.String({ maxLength: 100 })),
  within: Type.Optional(Type.String({ maxLength: 10 })),
})
export type FeedQuerystringValue = typeof FeedQuerystring.static

export const CategoriesQuerystring = Type.Object({
  includeEmpty: Type.Optional(Type.String()),
  includeUncategorized: Type.Optional(Type.String()),
})
export type CategoriesQuerystringValue = typeof CategoriesQuerystring.static

/** A whole number from a query string, with a person-readable 400 when it is not one. */
export function integerParam(
  value: unknown,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
): number {
  if (value === undefined || value === '') return fallback
  const number = typeof value === 'number' ? value : Number(value)
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new BadRequestError(
      `${name} must be a whole number from ${min} to ${max}`,
      'INVALID_QUERY',
    )
  }
  return number
}

export function booleanParam(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback
  if (value === 'true') return true
  if (value === 'false') return false
  throw new BadRequestError('Use true or false', 'INVALID_QUERY')
}

/** "All" and an empty value both mean "no filter" (the client sends neither). */
export function filterValue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  return trimmed === '' || trimmed === ALL_FILTER ? undefined : trimmed
}

/**
 * "Within N miles of <place>": the place resolved by the gazetteer, the distance, and whether the
 * answer is nearest first (sort=distance) or in the feed's order.
 */
export interface FeedNear {
  place: Place
  miles: number
  order: 'feed' | 'distance'
}

export type FeedRequest =
  | { kind: 'search'; terms: string[]; limit: number; near?: FeedNear }
  | {
      kind: 'page'
      near?: FeedNear
      filters: { category?: string; location?: string; payment?: string; contact?: string }
      page: number
      pageSize: number
      sort: 'desc' | 'asc'
      /**
       * Cursor mode, asked for by an `after` parameter: the answer's pagination carries
       * `nextCursor`. `after` empty: the first page; else the page starts right after this item
       * (the feed's order keys). Without `after` the answer is exactly the spec's.
       */
      after?: FeedCursor | 'start'
    }

/** What a feed cursor names: the last item of a page, by the keys of the feed's order. */
export interface FeedCursor {
  createdAt: number
  id: string
}

/**
 * A cursor's text: the item's creation time in ms and its id. Opaque to clients; readable
 * here so a cursor from any instance (or from before a restart) means the same place.
 */
export function formatFeedCursor(cursor: FeedCursor): string {
  return `${cursor.createdAt}_${cursor.id}`
}

const CURSOR = /^(\d{1,15})_([\w-]{1,64})$/

export function readFeedCursor(value: string): FeedCursor {
  const match = CURSOR.exec(value)
  if (!match)
    throw new BadRequestError('after must be a cursor from a previous page', 'INVALID_QUERY')
  return { createdAt: Number(match[1]), id: match[2]! }
}

/** The largest distance offered, taken when `near` comes without `within`. */
const DEFAULT_WITHIN: number = Math.max(...DISTANCE_CHOICES_MILES)

/**
 * `near` and `within` (and sort=distance) read into a FeedNear; undefined when no place is asked
 * about. A place the gazetteer does not know is a 400 that says what it understands.
 */
export function readFeedNear(query: {
  near?: string
  within?: string
  sort?: string
}): FeedNear | undefined {
  const text = query.near?.trim() ?? ''
  const within = query.within?.trim() ?? ''
  if (text === '') {
    if (within !== '')
      throw new BadRequestError('within needs near: the place to measure from', 'INVALID_QUERY')
    if (query.sort === 'distance')
      throw new BadRequestError(
        'sort=distance needs near: the place to measure from',
        'INVALID_QUERY',
      )
    return undefined
  }
  const miles = within === '' ? DEFAULT_WITHIN : Number(within)
  if (!isDistanceChoice(miles))
    throw new BadRequestError(
      `within must be one of ${DISTANCE_CHOICES_MILES.join(', ')} (miles)`,
      'INVALID_QUERY',
    )
  const place = resolvePlace(text)
  if (!place)
    throw new BadRequestError(
      `We don't know the place "${text}". Try a town and state, like "Austin, TX", or a US ZIP code.`,
      'UNKNOWN_PLACE',
    )
  return { place, miles, order: query.sort === 'distance' ? 'distance' : 'feed' }
}

/** A feed query string read into a search or a page, with a 400 for any bad value. */
export function readFeedQuery(query: FeedQuerystringValue, defaultPageSize: number): FeedRequest {
  const near = readFeedNear(query)
  if (query.search !== undefined) {
    const limit = integerParam(query.limit, 'limit', {
      min: 1,
      max: MAX_PAGE_SIZE,
      fallback: SEARCH_RESULT_LIMIT,
    })
    return { kind: 'search', terms: queryTerms(query.search), limit, ...(near && { near }) }
  }
  const sort = query.sort ?? 'desc'
  if (sort !== 'desc' && sort !== 'asc' && sort !== 'distance')
    throw new BadRequestError('sort must be desc, asc or distance', 'INVALID_QUERY')
  if (sort === 'distance' && query.after !== undefined)
    throw new BadRequestError(
      'after follows the newest or oldest order: with sort=distance, use page',
      'INVALID_QUERY',
    )
  return {
    kind: 'page',
    ...(near && { near }),
    filters: {
      category: filterValue(query.category),
      location: filterValue(query.location),
      payment: filterValue(query.payment),
      contact: filterValue(query.contact),
    },
    page: integerParam(query.page, 'page', { min: 1, max: 100_000, fallback: 1 }),
    pageSize: integerParam(query.limit, 'limit', {
      min: 1,
      max: MAX_PAGE_SIZE,
      fallback: defaultPageSize,
    }),
    sort: sort === 'distance' ? 'desc' : sort,
    ...(query.after !== undefined && {
      after: query.after === '' ? ('start' as const) : readFeedCursor(query.after),
    }),
  }
}

/**
 * The pagination block of a feed answer. With `next` (cursor mode: a page read from `start`
 * among the `total` matches, and the cursor of its last item), the page number is where it
 * starts and `nextCursor` is there when more follow.
 */
export function paginationOf(
  page: number,
  pageSize: number,
  total: number,
  next?: { start: number; count: number; last: FeedCursor | undefined },
) {
  const pagination: {
    page: number
    totalPages: number
    total: number
    limit: number
    nextCursor?: string
  } = {
    page: next ? Math.floor(next.start / pageSize) + 1 : page,
    totalPages: Math.max(1, Math.ceil(total / pageSize)),
    total,
    limit: pageSize,
  }
  if (next?.last && next.start + next.count < total)
    pagination.nextCursor = formatFeedCursor(next.last)
  return pagination
}

/** The category list's counts, without empty categories or Uncategorized unless asked. */
export function categoryCountsFor(
  all: Record<string, number>,
  query: CategoriesQuerystringValue,
): { categories: string[]; counts: Record<string, number> } {
  const includeEmpty = booleanParam(query.includeEmpty, false)
  const includeUncategorized = booleanParam(query.includeUncategorized, true)
  const counts: Record<string, number> = {}
  for (const [category, count] of Object.entries(all)) {
    if (!includeUncategorized && category === UNCATEGORIZED) continue
    if (!includeEmpty && count === 0) continue
    counts[category] = count
  }
  return { categories: Object.keys(counts), counts }
}
