import type { BlockedUser, BlockedUserList } from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import type { BlockSets } from '@marketplace/read-models/blocks'
import { BadRequestError, NotFoundError, newEvent } from '@marketplace/service-kit'
import { fullName, type ProfileDocument } from '../profiles/profile-document'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import type { BlockDocument } from './block-document'
import type { BlocksRepository } from './blocks-repository'

export interface BlockContext {
  callerId: string
  requestId?: string
}

function blockedUserView(block: BlockDocument, profile: ProfileDocument | undefined): BlockedUser {
  return {
    user: {
      _id: block.blockedId,
      name: profile ? fullName(profile) : 'Unknown User',
      profilePicture: profile?.worker?.profilePicture ?? null,
    },
    blockedAt: block.blockedAt.toISOString(),
  }
}

/**
 * Blocking (docs/blocking.md): a user blocks another, sees the list, lifts a block. The block
 * is stored here with its event; every service that serves one user's content to another
 * keeps the pairs from the events and hides each side from the other. This service's own read
 * model (`blockSets`) is written at once too, so the blocker's next reads here already honour
 * it; the event's handler writes the same again (idempotent), which also repairs a crash
 * between the two writes.
 */
export function createBlocksService(deps: {
  blocks: BlocksRepository
  blockSets: BlockSets
  profiles: ProfilesRepository
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  return {
    /** POST /api/people/blocks: `created` false when the block was already there. */
    async block(
      userId: unknown,
      context: BlockContext,
    ): Promise<{ created: boolean; block: BlockedUser }> {
      if (typeof userId !== 'string' || userId.trim() === '') {
        throw new BadRequestError(Messages.blocks.invalidUser, 'INVALID_USER')
      }
      if (userId === context.callerId) {
        throw new BadRequestError(Messages.blocks.cannotBlockYourself, 'OWN_ACCOUNT')
      }
      const target = await deps.profiles.findById(userId)
      // Someone in an account deletion's grace period is gone for everyone else already.
      if (!target || target.deletion) {
        throw new NotFoundError(Messages.blocks.personNotFound, 'PERSON_NOT_FOUND')
      }
      const data = { blockerId: context.callerId, blockedId: userId }
      const created = await deps.blocks.activate(
        context.callerId,
        userId,
        now(),
        newEvent('user.blocked', {
          aggregateId: context.callerId,
          actorId: context.callerId,
          requestId: context.requestId,
          data,
        }),
      )
      await deps.blockSets.block(data.blockerId, data.blockedId)
      const stored = await deps.blocks.findActive(context.callerId, userId)
      if (!stored) throw new NotFoundError(Messages.blocks.notBlocked, 'NOT_BLOCKED')
      return { created, block: blockedUserView(stored, target) }
    },

    /** DELETE /api/people/blocks/{userId}: 404 when the caller has not blocked them. */
    async unblock(userId: string, context: BlockContext): Promise<void> {
      const lifted = await deps.blocks.deactivate(
        context.callerId,
        userId,
        now(),
        newEvent('user.unblocked', {
          aggregateId: context.callerId,
          actorId: context.callerId,
          requestId: context.requestId,
          data: { blockerId: context.callerId, blockedId: userId },
        }),
      )
      if (!lifted) throw new NotFoundError(Messages.blocks.notBlocked, 'NOT_BLOCKED')
      await deps.blockSets.unblock(context.callerId, userId)
    },

    /** GET /api/people/blocks: the caller's blocks, newest first, with names read now. */
    async list(callerId: string): Promise<BlockedUserList> {
      const blocks = await deps.blocks.activeOf(callerId)
      const profiles = await deps.profiles.findByIds(blocks.map((block) => block.blockedId))
      return {
        blocks: blocks.map((block) => blockedUserView(block, profiles.get(block.blockedId))),
      }
    },

    /** user.deleted: the user's blocks, both ways. */
    async removeUser(userId: string): Promise<void> {
      await deps.blocks.removeUser(userId)
    },
  }
}

export type BlocksService = ReturnType<typeof createBlocksService>
