import {
  AccountDeletionSchema,
  AccountUpdateBodySchema,
  PeopleOwnUserParamsSchema,
  PeopleUserParamsSchema,
  PersonProfileSchema,
  PersonSelfViewSchema,
  SECURED,
  WorkerProfileBodySchema,
  WorkerStatusBodySchema,
  HomePlaceBodySchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { NotFoundError, assertSelf } from '@marketplace/service-kit'
import { exactTypesKeepingUnknownFields as exactTypes } from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import { toAccountDeletion, toPersonView, toSelfView } from './profile-views'
import type { ProfilesRepository } from './profiles-repository'
import type { ProfilesService } from './profiles-service'

const tags = ['people']

/**
 * /api/users/*: a profile as its owner or as anyone else sees it, and the owner's edits.
 * A `{userId}` that is not the caller's is refused with 403 (assertSelf) before anything is
 * read.
 */
export async function usersRoutes(
  app: ServiceApp,
  deps: {
    profiles: ProfilesRepository
    service: ProfilesService
    /** Whether either of two users blocked the other (docs/blocking.md). */
    isBlockedBetween?: (userId: string, otherId: string) => Promise<boolean>
  },
) {
  app.addHook('preHandler', app.authenticate)

  app.get(
    '/api/users/:id',
    {
      schema: {
        tags,
        summary: 'A profile: the self view for one’s own id, the person view for anyone else’s',
        security: SECURED,
        params: PeopleUserParamsSchema,
        response: { 200: PersonProfileSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { id } = request.params
      const viewerId = request.caller!.userId
      const profile = await deps.profiles.findById(id)
      // A profile in its deletion grace period is gone for everyone but its owner.
      if (!profile || (profile.deletion && id !== viewerId)) {
        throw new NotFoundError('User not found', 'USER_NOT_FOUND')
      }
      // Someone the viewer blocked, or who blocked the viewer, does not exist for them.
      if (id !== viewerId && (await deps.isBlockedBetween?.(viewerId, id))) {
        throw new NotFoundError('User not found', 'USER_NOT_FOUND')
      }
      return id === viewerId ? toSelfView(profile) : toPersonView(profile, viewerId)
    },
  )

  // Account deletion: the 30-day grace period starts; auth ends the sessions.
  app.delete(
    '/api/users/:id',
    {
      schema: {
        tags,
        summary: 'Delete one’s account after a 30-day grace period',
        security: SECURED,
        params: PeopleUserParamsSchema,
        response: { 200: AccountDeletionSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const caller = assertSelf(request, request.params.id)
      const profile = await deps.service.requestDeletion(caller.userId, {
        callerId: caller.userId,
        requestId: request.id,
      })
      return toAccountDeletion(profile)
    },
  )

  app.put(
    '/api/users/:id',
    {
      schema: {
        tags,
        summary: 'Change one’s names and phone number',
        security: SECURED,
        params: PeopleUserParamsSchema,
        body: AccountUpdateBodySchema,
        response: { 200: PersonSelfViewSchema, ...errorResponses(400, 401, 403, 404) },
      },
      validatorCompiler: exactTypes,
    },
    async (request) => {
      const caller = assertSelf(request, request.params.id)
      const saved = await deps.service.updateAccount(caller.userId, request.body, {
        callerId: caller.userId,
        requestId: request.id,
      })
      return toSelfView(saved)
    },
  )

  app.put(
    '/api/users/:userId/worker-profile',
    {
      schema: {
        tags,
        summary: 'Create or replace one’s worker profile',
        security: SECURED,
        params: PeopleOwnUserParamsSchema,
        body: WorkerProfileBodySchema,
        response: { 200: PersonSelfViewSchema, ...errorResponses(400, 401, 403, 404) },
      },
      validatorCompiler: exactTypes,
    },
    async (request) => {
      const caller = assertSelf(request, request.params.userId)
      const saved = await deps.service.saveWorkerProfile(caller.userId, request.body, {
        callerId: caller.userId,
        requestId: request.id,
      })
      return toSelfView(saved)
    },
  )

  app.patch(
    '/api/users/:userId/worker-status',
    {
      schema: {
        tags,
        summary: 'Switch one’s worker profile online or offline',
        description:
          'A profile a moderator took down stays offline (403); without a worker profile, 404.',
        security: SECURED,
        params: PeopleOwnUserParamsSchema,
        body: WorkerStatusBodySchema,
        response: { 200: PersonSelfViewSchema, ...errorResponses(400, 401, 403, 404) },
      },
      validatorCompiler: exactTypes,
    },
    async (request) => {
      const caller = assertSelf(request, request.params.userId)
      const saved = await deps.service.setWorkerStatus(caller.userId, request.body, {
        callerId: caller.userId,
        requestId: request.id,
      })
      return toSelfView(saved)
    },
  )

  app.put(
    '/api/users/:userId/home-place',
    {
      schema: {
        tags,
        summary: 'Set one’s home place, where the feed’s Within control starts from',
        description:
          'A town or US ZIP code the gazetteer knows (400 UNKNOWN_PLACE otherwise); empty clears it. Only the self view shows it (docs/distance.md).',
        security: SECURED,
        params: PeopleOwnUserParamsSchema,
        body: HomePlaceBodySchema,
        response: { 200: PersonSelfViewSchema, ...errorResponses(400, 401, 403, 404) },
      },
      validatorCompiler: exactTypes,
    },
    async (request) => {
      const caller = assertSelf(request, request.params.userId)
      return toSelfView(await deps.service.setHomePlace(caller.userId, request.body.homePlace))
    },
  )
}
