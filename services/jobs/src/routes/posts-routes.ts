import type { FastifyInstance } from 'fastify'
import { callerOf } from '@marketplace/service-kit'
import { NotFoundError } from '@marketplace/service-kit'
import type { PostAccess } from '../access/post-access'
import type { PostsRepository } from '../posts/posts-repository'
import type { PostsService } from '../posts/posts-service'
import { toPostView } from '../posts/post-view'
import { LooseBody, type LooseBodyValue } from '@marketplace/service-kit'
import { IdParams, postIdOf } from './http-shapes'

/** A post's own routes: create, the owner's list, read, change, delete. */
export async function postsRoutes(
  app: FastifyInstance,
  deps: { posts: PostsRepository; service: PostsService; access: PostAccess },
) {
  app.post(
    '/api/jobs',
    { schema: { body: LooseBody }, preHandler: app.authenticate },
    async (request, reply) => {
      const caller = callerOf(request)
      const post = await deps.service.create((request.body as LooseBodyValue) ?? {}, {
        callerId: caller.userId,
        requestId: request.id,
      })
      return reply.code(201).send(toPostView(post, caller.userId))
    },
  )

  app.get('/api/jobs/my-jobs', { preHandler: app.authenticate }, async (request) => {
    const caller = callerOf(request)
    const posts = await deps.posts.findByOwner(caller.userId)
    const access = await deps.access.usersOf(posts.map((post) => post._id))
    return posts.map((post) => toPostView(post, caller.userId, access.get(post._id)))
  })

  app.get(
    '/api/jobs/:id',
    { schema: { params: IdParams }, preHandler: app.identifyIfPossible },
    async (request) => {
      const viewerId = request.caller?.userId ?? null
      const post = await deps.posts.findById(postIdOf((request.params as { id: string }).id))
      // A taken-down post exists only for its owner.
      if (!post || (post.takenDown && post.userID !== viewerId)) {
        throw new NotFoundError('Post not found', 'POST_NOT_FOUND')
      }
      const access = await deps.access.usersOf([post._id])
      return toPostView(post, viewerId, access.get(post._id))
    },
  )

  app.put(
    '/api/jobs/:id',
    { schema: { params: IdParams, body: LooseBody }, preHandler: app.authenticate },
    async (request) => {
      const caller = callerOf(request)
      const post = await deps.service.update(
        postIdOf((request.params as { id: string }).id),
        (request.body as LooseBodyValue) ?? {},
        { callerId: caller.userId, requestId: request.id },
      )
      const access = await deps.access.usersOf([post._id])
      return toPostView(post, caller.userId, access.get(post._id))
    },
  )

  app.delete(
    '/api/jobs/:id',
    { schema: { params: IdParams }, preHandler: app.authenticate },
    async (request, reply) => {
      const caller = callerOf(request)
      await deps.service.remove(postIdOf((request.params as { id: string }).id), {
        callerId: caller.userId,
        requestId: request.id,
      })
      return reply.code(204).send()
    },
  )
}
