import type {
  JobCategories,
  JobPost,
  JobsFeedAnswer,
  JobsFeedQuery,
  JobsPagination,
  PeopleCategories,
  PeopleFeedPage,
  PeopleFeedQuerystring,
  PersonView,
} from '@marketplace/contracts/api'
import {
  ALL_FILTER,
  FEED_PAGE_SIZE,
  MAX_PAGE_SIZE,
  SEARCH_RESULT_LIMIT,
} from '@marketplace/contracts/marketplace'
import { api, errorStatus } from '@/lib/api'
import type { FeedState, FeedType } from '@/features/feed/feed-slice'
import { personMatchesFilters, postMatchesFilters } from '@/features/feed/search-words-filter'

/** What the feed asks for: the feed slice's filters, sort and page. */
export interface FeedQuery {
  category: string
  location: string
  payment: string
  contact: string
  page: number
  sort: 'desc' | 'asc' | 'distance'
  /** Within `within` miles of this place; absent or '' for any distance. */
  near?: string
  within?: number
  /** Words the feed is narrowed to: the services' search, then the filters here. */
  search?: string
}

/** The query of the feed the slice shows: the page's and main.tsx's early request agree. */
export function feedQueryOf(feed: FeedState): FeedQuery {
  const { category, location, payment, contact, page, sort, near, within, search } = feed
  return { category, location, payment, contact, page, sort, near, within, search }
}

/**
 * The category sidebar's list, one shape for both feeds: the category answer has
 * names in `categories`, and counts with totalJobs or totalWorkers in `metadata`.
 */
export interface CategoryList {
  categories: string[]
  total: number
  counts: Record<string, number>
}

/** Category, location, payment and contact go out only when not All. */
export function feedParams(query: FeedQuery): JobsFeedQuery & PeopleFeedQuerystring {
  const params: JobsFeedQuery & PeopleFeedQuerystring = {}
  for (const key of ['category', 'location', 'payment', 'contact'] as const) {
    const value = query[key].trim()
    if (value && value !== ALL_FILTER) params[key] = value
  }
  params.page = String(query.page)
  // Within N miles of a place goes out only with a place; Nearest needs one.
  const near = query.near?.trim() ?? ''
  if (near) {
    params.near = near
    if (query.within !== undefined) params.within = String(query.within)
  }
  params.sort = query.sort === 'distance' && !near ? 'desc' : query.sort
  // With words the services answer their search: its newest matches, one list, no pages.
  const search = query.search?.trim() ?? ''
  if (search) {
    params.search = search
    params.limit = String(MAX_PAGE_SIZE)
  }
  return params
}

export const CATEGORIES_LOGIN_MESSAGE = 'Please log in to view categories'
export const CATEGORIES_FAILED_MESSAGE = 'Failed to load categories'

/** A 401 or 403 asks the visitor to log in; anything else failed. */
export function categoriesErrorText(error: unknown): string {
  const status = errorStatus(error)
  return status === 401 || status === 403 ? CATEGORIES_LOGIN_MESSAGE : CATEGORIES_FAILED_MESSAGE
}

/** A feed page always has its pagination: an answer without one (a search) is one page. */
const onePage = (page: number, total: number): JobsPagination => ({
  page,
  totalPages: 1,
  total,
  limit: FEED_PAGE_SIZE,
})

/** A search answer read as the feed: the matches that pass the feed's filters. */
const searched = <T>(items: T[], query: FeedQuery, matches: (item: T, q: FeedQuery) => boolean) =>
  query.search?.trim() ? items.filter((item) => matches(item, query)) : items

/** The home feed, its category sidebar and the search box. */
export const feedApi = api.injectEndpoints({
  endpoints: (build) => ({
    getJobsFeed: build.query<Required<JobsFeedAnswer>, FeedQuery>({
      query: (query) => ({ url: '/api/jobs', params: feedParams(query) }),
      transformResponse: (body: Partial<JobsFeedAnswer>, _meta, query) => {
        const jobs = searched(body.jobs ?? [], query, postMatchesFilters)
        return { jobs, pagination: body.pagination ?? onePage(query.page, jobs.length) }
      },
      providesTags: ['Feed'],
    }),
    getPeopleFeed: build.query<Required<PeopleFeedPage>, FeedQuery>({
      query: (query) => ({ url: '/api/people', params: feedParams(query) }),
      transformResponse: (body: Partial<PeopleFeedPage>, _meta, query) => {
        const people = searched(body.people ?? [], query, personMatchesFilters)
        return { people, pagination: body.pagination ?? onePage(query.page, people.length) }
      },
      providesTags: ['Feed'],
    }),
    getCategories: build.query<CategoryList, FeedType>({
      query: (feedType) => ({
        url: feedType === 'job' ? '/api/jobs/categories' : '/api/people/categories',
        params: { includeEmpty: 'false', includeUncategorized: 'true' },
      }),
      transformResponse: (body: JobCategories | PeopleCategories) => {
        // Either service's metadata, read as one: it has totalJobs or totalWorkers.
        const metadata: Partial<JobCategories['metadata'] & PeopleCategories['metadata']> =
          body.metadata ?? {}
        return {
          categories: body.categories ?? [],
          total: metadata.totalJobs ?? metadata.totalWorkers ?? 0,
          counts: metadata.counts ?? {},
        }
      },
      providesTags: ['Categories'],
    }),
    searchJobs: build.query<JobPost[], string>({
      query: (search) => ({
        url: '/api/jobs',
        params: { search: search.trim(), limit: String(SEARCH_RESULT_LIMIT) },
      }),
      transformResponse: (body: Partial<JobsFeedAnswer>) => body.jobs ?? [],
      providesTags: ['Feed'],
    }),
    searchPeople: build.query<PersonView[], string>({
      query: (search) => ({
        url: '/api/people',
        params: { search: search.trim(), limit: String(SEARCH_RESULT_LIMIT) },
      }),
      transformResponse: (body: Partial<PeopleFeedPage>) => body.people ?? [],
      providesTags: ['Feed'],
    }),
  }),
})

export const {
  useGetJobsFeedQuery,
  useGetPeopleFeedQuery,
  useGetCategoriesQuery,
  useSearchJobsQuery,
  useSearchPeopleQuery,
} = feedApi
