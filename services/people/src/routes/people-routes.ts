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
import type { PeopleFeed } from '../feed/people-feed'
import { toPersonView } from '../profiles/profile-views'
import { withRating } from '../ratings/rating-views'

/**
 * The people feed (GET /api/people), its search (?search=&limit=) and the category sidebar,
 * served from the in-process feed index. Guests are welcome on the feed; a token lets a
 * worker see their own hidden contacts, and the owners of posts they requested see them too.
 */
export async function peopleRoutes(
  app: FastifyInstance,
  deps: { feed: PeopleFeed; pageSize: number },
) {
  app.get(
    '/api/people',
    { schema: { querystring: FeedQuerystring }, preHandler: app.identifyIfPossible },
    async (request) => {
      const query = readFeedQuery(request.query as FeedQuerystringValue, deps.pageSize)
      const viewerId = request.caller?.userId ?? null
      const now = new Date()
      if (query.kind === 'search') {
        const found = deps.feed.search(query.terms, query.limit)
        return {
          people: found.map((profile) => withRating(toPersonView(profile, viewerId, now), profile)),
        }
      }
      const { items, total } = deps.feed.page({
        filters: query.filters,
        page: query.page,
        pageSize: query.pageSize,
        sort: query.sort,
      })
      return {
        people: items.map((profile) => withRating(toPersonView(profile, viewerId, now), profile)),
        pagination: paginationOf(query.page, query.pageSize, total),
      }
    },
  )

  // The category list needs login (spec 1 §2, §6): 401 without a token.
  app.get(
    '/api/people/categories',
    { schema: { querystring: CategoriesQuerystring }, preHandler: app.authenticate },
    async (request) => {
      const { categories, counts } = categoryCountsFor(
        deps.feed.categoryCounts(),
        request.query as CategoriesQuerystringValue,
      )
      return { categories, metadata: { totalWorkers: deps.feed.size, counts } }
    },
  )
}
