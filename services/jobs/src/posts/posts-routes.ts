import type { FastifyRequest } from 'fastify'
import {
  IdParamsSchema,
  JobPostCreateBodySchema,
  JobPostListSchema,
  JobPostSchema,
  JobPostUpdateBodySchema,
  NoContent,
  SECURED,
  errorResponses,
} from '@marketplace/contracts/api'
import { callerOf } from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import type { PostLifeService } from './post-life-service'
import type { PostsService } from './posts-service'

const tags = ['jobs']

// Guests are served; a bearer token shows the caller more. common.ts's OPTIONALLY_SECURED
// says the same but is inferred as a type the route schema's `security` refuses.
const OPTIONALLY_SECURED = [{}, ...SECURED]

/** The caller and the request id, as every use case that changes something takes them. */
const contextOf = (request: FastifyRequest) => ({
  callerId: callerOf(request).userId,
  requestId: request.id,
})

/** A post's own routes: create, the owner's list, read, change, mark filled, relist, delete. */
export async function postsRoutes(
  app: ServiceApp,
  deps: { service: PostsService; life: PostLifeService },
) {
  app.post(
    '/api/jobs',
    {
      schema: {
        tags,
        summary: 'Create a post in the category chosen, or else in the one guessed from its words',
        security: SECURED,
        body: JobPostCreateBodySchema,
        response: { 201: JobPostSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
      preHandler: app.authenticate,
    },
    async (request, reply) => {
      const post = await deps.service.create(request.body ?? {}, contextOf(request))
      return reply.code(201).send(post)
    },
  )

  app.get(
    '/api/jobs/my-jobs',
    {
      schema: {
        tags,
        summary: "The caller's posts, newest first, hidden fields included",
        security: SECURED,
        response: { 200: JobPostListSchema, ...errorResponses(401) },
      },
      preHandler: app.authenticate,
    },
    async (request) => deps.service.listOwn(callerOf(request).userId),
  )

  app.get(
    '/api/jobs/:id',
    {
      schema: {
        tags,
        summary: 'A post; location and contact only when shown or the viewer is allowed',
        security: OPTIONALLY_SECURED,
        params: IdParamsSchema,
        response: { 200: JobPostSchema, ...errorResponses(401, 404) },
      },
      preHandler: app.identifyIfPossible,
    },
    async (request) => deps.service.read(request.params.id, request.caller?.userId ?? null),
  )

  app.put(
    '/api/jobs/:id',
    {
      schema: {
        tags,
        summary:
          "Change the caller's post (any field but the title, the category too), or switch it on or off",
        security: SECURED,
        params: IdParamsSchema,
        body: JobPostUpdateBodySchema,
        response: { 200: JobPostSchema, ...errorResponses(400, 401, 404, 413, 415) },
      },
      preHandler: app.authenticate,
    },
    async (request) =>
      deps.service.update(request.params.id, request.body ?? {}, contextOf(request)),
  )

  app.post(
    '/api/jobs/:id/fill',
    {
      schema: {
        tags,
        summary:
          "Mark the caller's post filled: no more requests, out of the feed and search, conversations kept; pending requesters are told",
        security: SECURED,
        params: IdParamsSchema,
        response: { 200: JobPostSchema, ...errorResponses(400, 401, 404) },
      },
      preHandler: app.authenticate,
    },
    async (request) => deps.life.fill(request.params.id, contextOf(request)),
  )

  app.post(
    '/api/jobs/:id/relist',
    {
      schema: {
        tags,
        summary:
          "Relist the caller's filled or expired post (or one expiring within three days): back at the top of the feed for 30 days, at most once a day",
        security: SECURED,
        params: IdParamsSchema,
        response: { 200: JobPostSchema, ...errorResponses(400, 401, 404, 429) },
      },
      preHandler: app.authenticate,
    },
    async (request) => deps.life.relist(request.params.id, contextOf(request)),
  )

  app.delete(
    '/api/jobs/:id',
    {
      schema: {
        tags,
        summary: "Delete the caller's post with the requests on it",
        security: SECURED,
        params: IdParamsSchema,
        response: { 204: NoContent, ...errorResponses(401, 404) },
      },
      preHandler: app.authenticate,
    },
    async (request, reply) => {
      await deps.service.remove(request.params.id, contextOf(request))
      return reply.code(204).send(null)
    },
  )
}
