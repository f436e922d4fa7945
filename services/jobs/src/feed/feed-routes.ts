import {
  JobCategoriesQuerySchema,
  JobCategoriesSchema,
  JobPostSchema,
  JobsFeedAnswerSchema,
  JobsFeedQuerySchema,
  JobsPaginationSchema,
  SECURED,
  errorResponses,
  type JobCategories,
} from '@marketplace/contracts/api'
import {
  READ_AFTER_HEADER,
  READ_AFTER_REFRESHED_HEADER,
  categoryCountsFor,
  paginationOf,
  readFeedQuery,
} from '@marketplace/service-kit'
import type { CatchUpResult } from '@marketplace/read-models/consistency'
import type { ServiceApp } from '@marketplace/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { PostDocument } from '../posts/post-document'
import type { FeedIndex } from './feed-index'
import { feedJson, type PageDistances, type PostSerializer } from './post-json'

const tags = ['jobs']

// Guests are served; a bearer token shows the caller more. common.ts's OPTIONALLY_SECURED
// says the same but is inferred as a type the route schema's `security` refuses.
const OPTIONALLY_SECURED = [{}, ...SECURED]

/**
 * The public feed (GET /api/jobs), its search form (?search=&limit=) and the category
 * sidebar. Guests are welcome on the feed; a token, when sent, lets the owner and authorized
 * users see hidden fields of their posts in it.
 */
export async function feedRoutes(
  app: ServiceApp,
  deps: {
    feed: FeedIndex
    pageSize: number
    accessOf: (postId: string) => readonly string[]
    /** An insider's post, read again by `_id` (the feed holds only what guests see). */
    readPost: (postId: string) => Promise<PostDocument | null>
    /** The posts a read names in X-Read-After, applied first when this instance lags (feed-sync). */
    catchUp: (header: string | string[] | undefined) => Promise<CatchUpResult>
    /** The people a signed-in reader blocked or was blocked by: their posts are left out. */
    hiddenFrom: (userId: string | null) => Promise<ReadonlySet<string>>
  },
) {
  const { feed, accessOf, readPost } = deps

  /**
   * A caller who just wrote sees the write, whichever instance took it: the posts the
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
    '/api/jobs',
    {
      schema: {
        tags,
        summary: 'The feed of live posts, newest or oldest first, with filters; or a search',
        security: OPTIONALLY_SECURED,
        querystring: JobsFeedQuerySchema,
        response: { 200: JobsFeedAnswerSchema, ...errorResponses(400, 401) },
      },
      preHandler: app.identifyIfPossible,
    },
    async (request, reply) => {
      const query = readFeedQuery(request.query, deps.pageSize)
      await readAfterWrites(request, reply)
      const viewerId = request.caller?.userId ?? null
      const hiddenOwners = await deps.hiddenFrom(viewerId)
      // The feed is benchmarked for throughput: its body is assembled from cached card texts
      // (post-json.ts), each written by JobPostSchema's serializer, and sent as a string
      // (Fastify serializes no string whose content type is JSON).
      const serialize: PostSerializer = reply.compileSerializationSchema(JobPostSchema)
      void reply.type('application/json; charset=utf-8')
      const near = query.near && {
        lat: query.near.place.lat,
        lon: query.near.place.lon,
        miles: query.near.miles,
        order: query.near.order,
      }
      const distancesOf = (miles: number[] | undefined): PageDistances | undefined =>
        near && miles && { from: near, miles }
      if (query.kind === 'search') {
        const found = near
          ? feed.searchNear(query.terms, query.limit, near, hiddenOwners)
          : { slots: feed.search(query.terms, query.limit, hiddenOwners), distances: undefined }
        const jobs = await feedJson(
          feed,
          found.slots,
          viewerId,
          accessOf,
          readPost,
          serialize,
          distancesOf(found.distances),
        )
        return `{"jobs":${jobs}}`
      }
      const { slots, total, start, distances } = feed.page({
        ...query.filters,
        page: query.page,
        pageSize: query.pageSize,
        sort: query.sort,
        after: query.after === 'start' ? undefined : query.after,
        hiddenOwners,
        near,
      })
      // Cursor mode (`after`): the cursor of the page's last post; the next page follows it
      // exactly, on any instance.
      const last = slots.length > 0 ? feed.positionOf(slots[slots.length - 1]!) : undefined
      const pagination = reply.compileSerializationSchema(JobsPaginationSchema)(
        query.after === undefined
          ? paginationOf(query.page, query.pageSize, total)
          : paginationOf(query.page, query.pageSize, total, { start, count: slots.length, last }),
      )
      const jobs = await feedJson(
        feed,
        slots,
        viewerId,
        accessOf,
        readPost,
        serialize,
        distancesOf(distances),
      )
      return `{"jobs":${jobs},"pagination":${pagination}}`
    },
  )

  // The category list needs login: 401 without a token.
  app.get(
    '/api/jobs/categories',
    {
      schema: {
        tags,
        summary: 'Categories with their live post counts and the total',
        security: SECURED,
        querystring: JobCategoriesQuerySchema,
        response: { 200: JobCategoriesSchema, ...errorResponses(400, 401) },
      },
      preHandler: app.authenticate,
    },
    async (request, reply): Promise<JobCategories> => {
      await readAfterWrites(request, reply)
      const { categories, counts } = categoryCountsFor(deps.feed.categoryCounts(), request.query)
      return { categories, metadata: { totalJobs: deps.feed.size, counts } }
    },
  )
}
