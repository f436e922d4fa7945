import { ALL_FILTER, SEARCH_RESULT_LIMIT } from '@marketplace/contracts/marketplace'
import { api, errorStatus } from '@/lib/api'
import type { Pagination, Person, Post } from '@/lib/types'
import type { FeedType } from '@/features/feed/feed-slice'

/** What the feed asks for: the feed slice's filters, sort and page. */
export interface FeedQuery {
  category: string
  location: string
  payment: string
  contact: string
  page: number
  sort: 'desc' | 'asc'
}

export interface JobsPage {
  jobs: Post[]
  pagination: Pagination
}

export interface PeoplePage {
  people: Person[]
  pagination: Pagination
}

/** spec 1 §3 "Category response"; services answer names in `categories`, counts by name. */
export interface CategoryList {
  categories: string[]
  total: number
  counts: Record<string, number>
}

interface CategoriesAnswer {
  categories: string[]
  metadata: { totalJobs?: number; totalWorkers?: number; counts?: Record<string, number> }
}

/** spec 1 §7: category, location, payment and contact go out only when not All. */
export function feedParams(query: FeedQuery): Record<string, string> {
  const params: Record<string, string> = {}
  for (const key of ['category', 'location', 'payment', 'contact'] as const) {
    const value = query[key].trim()
    if (value && value !== ALL_FILTER) params[key] = value
  }
  params.page = String(query.page)
  params.sort = query.sort
  return params
}

export const CATEGORIES_LOGIN_MESSAGE = 'Please log in to view categories'
export const CATEGORIES_FAILED_MESSAGE = 'Failed to load categories'

/** spec 1 §6, §8: a 401 or 403 asks the visitor to log in; anything else failed. */
export function categoriesErrorText(error: unknown): string {
  const status = errorStatus(error)
  return status === 401 || status === 403 ? CATEGORIES_LOGIN_MESSAGE : CATEGORIES_FAILED_MESSAGE
}

const emptyPagination = (page: number): Pagination => ({ page, totalPages: 1, total: 0 })

/** The home feed, its category sidebar and the search box (spec 1 §7). */
export const feedApi = api.injectEndpoints({
  endpoints: (build) => ({
    getJobsFeed: build.query<JobsPage, FeedQuery>({
      query: (query) => ({ url: '/api/jobs', params: feedParams(query) }),
      transformResponse: (body: Partial<JobsPage>, _meta, query) => ({
        jobs: body.jobs ?? [],
        pagination: body.pagination ?? emptyPagination(query.page),
      }),
      providesTags: ['Feed'],
    }),
    getPeopleFeed: build.query<PeoplePage, FeedQuery>({
      query: (query) => ({ url: '/api/people', params: feedParams(query) }),
      transformResponse: (body: Partial<PeoplePage>, _meta, query) => ({
        people: body.people ?? [],
        pagination: body.pagination ?? emptyPagination(query.page),
      }),
      providesTags: ['Feed'],
    }),
    getCategories: build.query<CategoryList, FeedType>({
      query: (feedType) => ({
        url: feedType === 'job' ? '/api/jobs/categories' : '/api/people/categories',
        params: { includeEmpty: 'false', includeUncategorized: 'true' },
      }),
      transformResponse: (body: CategoriesAnswer) => ({
        categories: body.categories ?? [],
        total: body.metadata?.totalJobs ?? body.metadata?.totalWorkers ?? 0,
        counts: body.metadata?.counts ?? {},
      }),
      providesTags: ['Categories'],
    }),
    searchJobs: build.query<Post[], string>({
      query: (search) => ({
        url: '/api/jobs',
        params: { search: search.trim(), limit: String(SEARCH_RESULT_LIMIT) },
      }),
      transformResponse: (body: { jobs?: Post[] }) => body.jobs ?? [],
      providesTags: ['Feed'],
    }),
    searchPeople: build.query<Person[], string>({
      query: (search) => ({
        url: '/api/people',
        params: { search: search.trim(), limit: String(SEARCH_RESULT_LIMIT) },
      }),
      transformResponse: (body: { people?: Person[] }) => body.people ?? [],
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
