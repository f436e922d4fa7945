import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import { LooseBody, callerOf, type LooseBodyValue } from '@marketplace/service-kit'
import type { FavoritesService } from '../favorites/favorites-service'

const UserParams = Type.Object({ userId: Type.String({ maxLength: 64 }) })
const PostParams = Type.Object({
  userId: Type.String({ maxLength: 64 }),
  postId: Type.String({ maxLength: 64 }),
})
const PersonParams = Type.Object({
  userId: Type.String({ maxLength: 64 }),
  personId: Type.String({ maxLength: 64 }),
})

/**
 * The six calls of spec 1 §7. Every route needs a token, and every user id in a path or body
 * must be the caller's (403 otherwise). A save answers 201 with the new entry, or 200 with
 * the one already there; a removal answers 204 whether or not the entry existed.
 */
export async function favoritesRoutes(app: FastifyInstance, deps: { service: FavoritesService }) {
  app.addHook('preHandler', app.authenticate)
  const context = (request: FastifyRequest) => ({
    callerId: callerOf(request).userId,
    requestId: request.id,
  })

  app.get('/api/favorites/posts/:userId', { schema: { params: UserParams } }, async (request) => {
    const { userId } = request.params as { userId: string }
    return deps.service.listPosts(userId, context(request))
  })

  app.post('/api/favorites/posts', { schema: { body: LooseBody } }, async (request, reply) => {
    const saved = await deps.service.addPost(request.body as LooseBodyValue, context(request))
    return reply.code(saved.created ? 201 : 200).send(saved.entry)
  })

  app.delete(
    '/api/favorites/posts/:userId/:postId',
    { schema: { params: PostParams } },
    async (request, reply) => {
      const { userId, postId } = request.params as { userId: string; postId: string }
      await deps.service.removePost(userId, postId, context(request))
      return reply.code(204).send()
    },
  )

  app.get('/api/favorites/people/:userId', { schema: { params: UserParams } }, async (request) => {
    const { userId } = request.params as { userId: string }
    return deps.service.listPeople(userId, context(request))
  })

  app.post('/api/favorites/people', { schema: { body: LooseBody } }, async (request, reply) => {
    const saved = await deps.service.addPerson(request.body as LooseBodyValue, context(request))
    return reply.code(saved.created ? 201 : 200).send(saved.entry)
  })

  app.delete(
    '/api/favorites/people/:userId/:personId',
    { schema: { params: PersonParams } },
    async (request, reply) => {
      const { userId, personId } = request.params as { userId: string; personId: string }
      await deps.service.removePerson(userId, personId, context(request))
      return reply.code(204).send()
    },
  )
}
