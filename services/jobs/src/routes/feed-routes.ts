import type { FastifyInstance } from 'fastify'
import {
  CategoriesQuerystring,
  FeedQuerystring,
  categoryCountsFor,
  paginationOf,
  readFeedQuery,
  type CategoriesQuerystringValue,
  type FeedQuerystringValue,
} from '@marketplace/service-kit'
import { postsJson } from '../feed/post-json'
import type { FeedIndex } from '../feed/feed-index'

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
      const query = readFeedQuery(request.query as FeedQuerystringValue, deps.pageSize)
      const viewerId = request.caller?.userId ?? null
      // The body is assembled from cached post texts (feed/post-json.ts): a string reply.
      void reply.type('application/json; charset=utf-8')
      if (query.kind === 'search') {
        const posts = deps.feed.search(query.terms, query.limit)
        return `{"jobs":${postsJson(posts, viewerId, deps.accessOf)}}`
      }
      const { posts, total } = deps.feed.page({
        ...query.filters,
        page: query.page,
        pageSize: query.pageSize,
        sort: query.sort,
      })
      const pagination = paginationOf(query.page, query.pageSize, total)
      return `{"jobs":${postsJson(posts, viewerId, deps.accessOf)},"pagination":${JSON.stringify(pagination)}}`
    },
  )

  // The category list needs login (spec 1 §2, §6): 401 without a token.
  app.get(
    '/api/jobs/categories',
    { schema: { querystring: CategoriesQuerystring }, preHandler: app.authenticate },
    async (request) => {
      const { categories, counts } = categoryCountsFor(
        deps.feed.categoryCounts(),
        request.query as CategoriesQuerystringValue,
      )
      return { categories, metadata: { totalJobs: deps.feed.size, counts } }
    },
  )
}
