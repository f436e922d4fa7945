import type { FastifyRequest } from 'fastify'
import {
  FavoritePersonBodySchema,
  FavoritePersonEntrySchema,
  FavoritePersonListSchema,
  FavoritePersonParamsSchema,
  FavoritePostBodySchema,
  FavoritePostEntrySchema,
  FavoritePostListSchema,
  FavoritePostParamsSchema,
  FavoritesUserParamsSchema,
  NoContent,
  SECURED,
  errorResponses,
} from '@marketplace/contracts/api'
import { callerOf } from '@marketplace/service-kit'
import { exactTypes } from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import type { FavoritesService } from './favorites-service'

const tags = ['favorites']

/**
 * The six favorites calls: save, remove and list, for posts and for people. Every route needs a token, and every user id in a path or body
 * must be the caller's (403 otherwise). A save answers 201 with the new entry, or 200 with
 * the one already there; a removal answers 204 whether or not the entry existed.
 */
export async function favoritesRoutes(app: ServiceApp, deps: { service: FavoritesService }) {
  // On request, before the body is read: a guest gets 401 whatever they send.
  app.addHook('onRequest', app.authenticate)
  const context = (request: FastifyRequest) => ({
    callerId: callerOf(request).userId,
    requestId: request.id,
  })

  app.get(
    '/api/favorites/posts/:userId',
    {
      schema: {
        tags,
        summary: "The caller's favorite posts, newest first, as a guest sees each post",
        security: SECURED,
        params: FavoritesUserParamsSchema,
        response: { 200: FavoritePostListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => deps.service.listPosts(request.params.userId, context(request)),
  )

  app.post(
    '/api/favorites/posts',
    {
      schema: {
        tags,
        summary: 'Save a post (201), or get the entry already saved (200)',
        security: SECURED,
        body: FavoritePostBodySchema,
        response: {
          200: FavoritePostEntrySchema,
          201: FavoritePostEntrySchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
      validatorCompiler: exactTypes,
    },
    async (request, reply) => {
      const saved = await deps.service.addPost(request.body, context(request))
      return reply.code(saved.created ? 201 : 200).send(saved.entry)
    },
  )

  app.delete(
    '/api/favorites/posts/:userId/:postId',
    {
      schema: {
        tags,
        summary: 'Remove a post from the favorites (204 also when it was not saved)',
        security: SECURED,
        params: FavoritePostParamsSchema,
        response: { 204: NoContent, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { userId, postId } = request.params
      await deps.service.removePost(userId, postId, context(request))
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/api/favorites/people/:userId',
    {
      schema: {
        tags,
        summary: "The caller's favorite workers, newest first, as a stranger sees each",
        security: SECURED,
        params: FavoritesUserParamsSchema,
        response: { 200: FavoritePersonListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => deps.service.listPeople(request.params.userId, context(request)),
  )

  app.post(
    '/api/favorites/people',
    {
      schema: {
        tags,
        summary: 'Save a worker (201), or get the entry already saved (200)',
        security: SECURED,
        body: FavoritePersonBodySchema,
        response: {
          200: FavoritePersonEntrySchema,
          201: FavoritePersonEntrySchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
      validatorCompiler: exactTypes,
    },
    async (request, reply) => {
      const saved = await deps.service.addPerson(request.body, context(request))
      return reply.code(saved.created ? 201 : 200).send(saved.entry)
    },
  )

  app.delete(
    '/api/favorites/people/:userId/:personId',
    {
      schema: {
        tags,
        summary: 'Remove a worker from the favorites (204 also when they were not saved)',
        security: SECURED,
        params: FavoritePersonParamsSchema,
        response: { 204: NoContent, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { userId, personId } = request.params
      await deps.service.removePerson(userId, personId, context(request))
      return reply.code(204).send(null)
    },
  )
}
