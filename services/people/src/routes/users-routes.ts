import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { Messages } from '@marketplace/contracts/validation'
import { LooseBody, NotFoundError, assertSelf } from '@marketplace/service-kit'
import { toPersonView, toSelfView } from '../profiles/profile-views'
import { withRating } from '../ratings/rating-views'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import type { ProfilesService } from '../profiles/profiles-service'

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) })
const UserIdParams = Type.Object({ userId: Type.String({ maxLength: 64 }) })

/**
 * /api/users/*: a profile as its owner or as anyone else sees it, and the owner's edits.
 * A `{userId}` that is not the caller's is refused with 403 (assertSelf) before anything is
 * read.
 */
export async function usersRoutes(
  app: FastifyInstance,
  deps: { profiles: ProfilesRepository; service: ProfilesService },
) {
  app.addHook('preHandler', app.authenticate)

  app.get('/api/users/:id', { schema: { params: IdParams } }, async (request) => {
    const { id } = request.params as { id: string }
    const viewerId = request.caller!.userId
    const profile = await deps.profiles.findById(id)
    // A profile in its deletion grace period is gone for everyone but its owner.
    if (!profile || (profile.deletion && id !== viewerId)) {
      throw new NotFoundError('User not found', 'USER_NOT_FOUND')
    }
    // The worker's rating (docs/ratings-and-stats.md) in both views.
    return withRating(
      id === viewerId ? toSelfView(profile) : toPersonView(profile, viewerId),
      profile,
    )
  })

  // Account deletion (spec 2 §2.7): the 30-day grace period starts; auth ends the sessions.
  app.delete('/api/users/:id', { schema: { params: IdParams } }, async (request) => {
    const caller = assertSelf(request, (request.params as { id: string }).id)
    const profile = await deps.service.requestDeletion(caller.userId, {
      callerId: caller.userId,
      requestId: request.id,
    })
    return {
      message: Messages.account.deleted,
      purgeAfter: profile.deletion?.purgeAfter.toISOString() ?? null,
    }
  })

  app.put('/api/users/:id', { schema: { params: IdParams, body: LooseBody } }, async (request) => {
    const caller = assertSelf(request, (request.params as { id: string }).id)
    const saved = await deps.service.updateAccount(caller.userId, request.body, {
      callerId: caller.userId,
      requestId: request.id,
    })
    return withRating(toSelfView(saved), saved)
  })

  app.put(
    '/api/users/:userId/worker-profile',
    { schema: { params: UserIdParams, body: LooseBody } },
    async (request) => {
      const caller = assertSelf(request, (request.params as { userId: string }).userId)
      const saved = await deps.service.saveWorkerProfile(caller.userId, request.body, {
        callerId: caller.userId,
        requestId: request.id,
      })
      return withRating(toSelfView(saved), saved)
    },
  )

  app.patch(
    '/api/users/:userId/worker-status',
    { schema: { params: UserIdParams, body: LooseBody } },
    async (request) => {
      const caller = assertSelf(request, (request.params as { userId: string }).userId)
      const saved = await deps.service.setWorkerStatus(caller.userId, request.body, {
        callerId: caller.userId,
        requestId: request.id,
      })
      return withRating(toSelfView(saved), saved)
    },
  )
}
