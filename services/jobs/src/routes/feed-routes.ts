import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { ALL_FILTER, MAX_PAGE_SIZE, SEARCH_RESULT_LIMIT } from '@marketplace/contracts/marketplace'
import { BadRequestError } from '@marketplace/service-kit'
import { UNCATEGORIZED } from '../posts/categories'
import { postsJson } from '../feed/post-json'
import { queryTerms } from '../posts/search-words'
import type { FeedIndex } from '../feed/feed-index'
import { integerParam } from './http-shapes'

const FeedQuerystring = Type.Object({
  category: Type.Optional(Type.String({ maxLength: 100 })),
  location: Type.Optional(Type.String({ maxLength: 100 })),
  payment: Type.Optional(Type.String({ maxLength: 100 })),
  contact: Type.Optional(Type.String({ maxLength: 100 })),
  page: Type.Optional(Type.String({ maxLength: 10 })),
  limit: Type.Optional(Type.String({ maxLength: 10 })),
  sort: Type.Optional(Type.String({ maxLength: 10 })),
  search: Type.Optional(Type.String({ maxLength: 200 })),
})

const CategoriesQuerystring = Type.Object({
  includeEmpty: Type.Optional(Type.String()),
  includeUncategorized: Type.Optional(Type.String()),
})

/** "All" and an empty value both mean "no filter" (the client sends neither, spec 1 §7). */
function filterValue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  return trimmed === '' || trimmed === ALL_FILTER ? undefined : trimmed
}

function booleanParam(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback
  if (value === 'true') return true
  if (value === 'false') return false
  throw new BadRequestError('Use true or false', 'INVALID_QUERY')
}

/**
 * The public feed (GET /api/jobs), its search form (?search=&limit=) and the category
 * sidebar. Guests are welcome on the feed; a token, when sent, lets the owner and authorized
 * users see hidden fields of their posts in it.
 */
export async function feedRoutes(
  app: FastifyInstance,
  deps: { feed: FeedIndex; pageSize: number; accessOf: (postId: string) => readonly string[] },
) {
  app.get(
    '/api/jobs',
    { schema: { querystring: FeedQuerystring }, preHandler: app.identifyIfPossible },
    async (request, reply) => {
      const query = request.query as typeof FeedQuerystring.static
      const viewerId = request.caller?.userId ?? null
      // The body is assembled from cached post texts (feed/post-json.ts): a string reply.
      void reply.type('application/json; charset=utf-8')
      if (query.search !== undefined) {
        const limit = integerParam(query.limit, 'limit', {
          min: 1,
          max: MAX_PAGE_SIZE,
          fallback: SEARCH_RESULT_LIMIT,
        })
        const posts = deps.feed.search(queryTerms(query.search), limit)
        return `{"jobs":${postsJson(posts, viewerId, deps.accessOf)}}`
      }
      const sort = query.sort ?? 'desc'
      if (sort !== 'desc' && sort !== 'asc')
        throw new BadRequestError('sort must be desc or asc', 'INVALID_QUERY')
      const pageSize = integerParam(query.limit, 'limit', {
        min: 1,
        max: MAX_PAGE_SIZE,
        fallback: deps.pageSize,
      })
      const page = integerParam(query.page, 'page', { min: 1, max: 100_000, fallback: 1 })
      const { posts, total } = deps.feed.page({
        category: filterValue(query.category),
        location: filterValue(query.location),
        payment: filterValue(query.payment),
        contact: filterValue(query.contact),
        page,
        pageSize,
        sort,
      })
      const pagination = {
        page,
        totalPages: Math.max(1, Math.ceil(total / pageSize)),
        total,
        limit: pageSize,
      }
      return `{"jobs":${postsJson(posts, viewerId, deps.accessOf)},"pagination":${JSON.stringify(pagination)}}`
    },
  )

  // The category list needs login (spec 1 §2, §6): 401 without a token.
  app.get(
    '/api/jobs/categories',
    { schema: { querystring: CategoriesQuerystring }, preHandler: app.authenticate },
    async (request) => {
      const query = request.query as typeof CategoriesQuerystring.static
      const includeEmpty = booleanParam(query.includeEmpty, false)
      const includeUncategorized = booleanParam(query.includeUncategorized, true)
      const all = deps.feed.categoryCounts()
      const counts: Record<string, number> = {}
      for (const [category, count] of Object.entries(all)) {
        if (!includeUncategorized && category === UNCATEGORIZED) continue
        if (!includeEmpty && count === 0) continue
        counts[category] = count
      }
      return { categories: Object.keys(counts), metadata: { totalJobs: deps.feed.size, counts } }
    },
  )
}
