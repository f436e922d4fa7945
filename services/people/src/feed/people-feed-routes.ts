import {
  OPTIONALLY_SECURED,
  PeopleCategoriesQuerystringSchema,
  PeopleCategoriesSchema,
  PeopleFeedPageSchema,
  PeopleFeedQuerystringSchema,
  SECURED,
  errorResponses,
  type PeopleFeedPage,
} from '@marketplace/contracts/api'
import {
  READ_AFTER_HEADER,
  READ_AFTER_REFRESHED_HEADER,
  categoryCountsFor,
  paginationOf,
  readFeedQuery,
} from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import type { CatchUpResult } from '@marketplace/read-models/consistency'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ProfileDocument } from '../profiles/profile-document'
import type { PeopleFeed } from './people-feed'

const tags = ['people']
// contracts' OPTIONALLY_SECURED is inferred as `{ bearerAuth?: undefined } | ...`, which
// Fastify's `security` type refuses; it is the same list.
const guestOrSignedIn = OPTIONALLY_SECURED as Array<Record<string, string[]>>

/**
 * The people feed (GET /api/people), its search (?search=&limit=) and the category sidebar,
 * served from the in-process feed index. Guests are welcome on the feed; a token lets a
 * worker see their own hidden contacts, and the owners of posts they requested see them too.
 */
export async function peopleRoutes(
  app: ServiceApp,
  deps: {
    feed: PeopleFeed
    pageSize: number
    /** A card an insider sees, from the profile read again by `_id` (people-feed.ts). */
    readProfile: (userId: string) => Promise<ProfileDocument | null>
    /** The profiles a read names in X-Read-After, applied first when this instance lags. */
    catchUp: (header: string | string[] | undefined) => Promise<CatchUpResult>
    /** The people a signed-in reader blocked or was blocked by: left out (docs/blocking.md). */
    hiddenFrom: (userId: string | null) => Promise<ReadonlySet<string>>
  },
) {
  const { feed, readProfile } = deps

  /**
   * A caller who just wrote sees the write, whichever instance took it: the profiles the
   * X-Read-After header names are read from the database first when this instance has not
   * applied them yet. `x-read-after-refreshed` says how many were (0: it had them all).
   */
  async function readAfterWrites(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers[READ_AFTER_HEADER]
    if (header === undefined) return
    const { refreshed } = await deps.catchUp(header)
    void reply.header(READ_AFTER_REFRESHED_HEADER, String(refreshed))
  }
  app.get(
    '/api/people',
    {
      schema: {
        tags,
        summary: 'The people feed with its filters and pages, or a search of workers',
        description:
          'Online workers, newest sign-up first. With `search`, at most `limit` matches and no pagination.',
        security: guestOrSignedIn,
        querystring: PeopleFeedQuerystringSchema,
        response: { 200: PeopleFeedPageSchema, ...errorResponses(400, 401) },
      },
      preHandler: app.identifyIfPossible,
    },
    async (request, reply): Promise<PeopleFeedPage> => {
      const query = readFeedQuery(request.query, deps.pageSize)
      await readAfterWrites(request, reply)
      const viewerId = request.caller?.userId ?? null
      const hiddenIds = await deps.hiddenFrom(viewerId)
      const now = new Date()
      const near = query.near && {
        lat: query.near.place.lat,
        lon: query.near.place.lon,
        miles: query.near.miles,
        order: query.near.order,
      }
      if (query.kind === 'search') {
        if (near) {
          const found = feed.searchNear(query.terms, query.limit, near, hiddenIds)
          return {
            people: await feed.views(found.slots, viewerId, now, readProfile, found.distances),
          }
        }
        const found = feed.search(query.terms, query.limit, hiddenIds)
        return { people: await feed.views(found, viewerId, now, readProfile) }
      }
      const { slots, total, start, distances } = feed.page({
        filters: query.filters,
        page: query.page,
        pageSize: query.pageSize,
        sort: query.sort,
        after: query.after === 'start' ? undefined : query.after,
        hiddenIds,
        near,
      })
      // Cursor mode (`after`): the cursor of the page's last worker; the next page follows it
      // exactly, on any instance.
      const last = slots.length > 0 ? feed.positionOf(slots[slots.length - 1]!) : undefined
      return {
        people: await feed.views(slots, viewerId, now, readProfile, distances),
        pagination:
          query.after === undefined
            ? paginationOf(query.page, query.pageSize, total)
            : paginationOf(query.page, query.pageSize, total, { start, count: slots.length, last }),
      }
    },
  )

  // The category list needs login: 401 without a token.
  app.get(
    '/api/people/categories',
    {
      schema: {
        tags,
        summary: 'Categories with how many workers the feed lists in each',
        security: SECURED,
        querystring: PeopleCategoriesQuerystringSchema,
        response: { 200: PeopleCategoriesSchema, ...errorResponses(400, 401) },
      },
      preHandler: app.authenticate,
    },
    async (request, reply) => {
      await readAfterWrites(request, reply)
      const { categories, counts } = categoryCountsFor(deps.feed.categoryCounts(), request.query)
      return { categories, metadata: { totalWorkers: deps.feed.size, counts } }
    },
  )
}
