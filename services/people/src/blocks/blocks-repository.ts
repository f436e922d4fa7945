import { MongoServerError, type Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  findOneAndUpdateWithEvents,
  insertWithEvents,
  type IndexDefinition,
} from '@marketplace/service-kit'
import { BLOCKS_COLLECTION, blockIdOf, type BlockDocument } from './block-document'

export const blockIndexes: IndexDefinition[] = [
  {
    collection: BLOCKS_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
  // Settings › Blocked users: the caller's active blocks, newest first.
  {
    collection: BLOCKS_COLLECTION,
    keys: { blockerId: 1, active: 1, blockedAt: -1 },
    options: { name: 'active_by_blocker' },
  },
  // user.deleted of the blocked person (the blocker's side is the index above's prefix).
  { collection: BLOCKS_COLLECTION, keys: { blockedId: 1 }, options: { name: 'by_blocked' } },
]

/** The only code that touches the blocks collection. */
export function createBlocksRepository(
  db: Db,
  hooks: {
    notifyOutbox(target: { collection: string; id: string; outbox?: DomainEvent[] }): void
  },
) {
  const blocks = db.collection<BlockDocument>(BLOCKS_COLLECTION)

  return {
    /**
     * Makes the block active with its event: a new pair is inserted, a lifted one made active
     * again. Answers false when it was already active (nothing written, no event).
     */
    async activate(
      blockerId: string,
      blockedId: string,
      at: Date,
      event: DomainEvent,
    ): Promise<boolean> {
      const _id = blockIdOf(blockerId, blockedId)
      try {
        await blocks.insertOne(
          insertWithEvents<BlockDocument>(
            { _id, blockerId, blockedId, active: true, blockedAt: at, updatedAt: at },
            [event],
          ),
        )
        hooks.notifyOutbox({ collection: BLOCKS_COLLECTION, id: _id, outbox: [event] })
        return true
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === 11000)) throw error
      }
      const reactivated = await findOneAndUpdateWithEvents(
        blocks,
        { _id, active: false },
        { $set: { active: true, blockedAt: at, updatedAt: at } },
        [event],
      )
      if (reactivated) hooks.notifyOutbox({ collection: BLOCKS_COLLECTION, id: _id })
      return reactivated !== null
    },

    /** Lifts an active block with its event; false when there was none. */
    async deactivate(
      blockerId: string,
      blockedId: string,
      at: Date,
      event: DomainEvent,
    ): Promise<boolean> {
      const _id = blockIdOf(blockerId, blockedId)
      const lifted = await findOneAndUpdateWithEvents(
        blocks,
        { _id, active: true },
        { $set: { active: false, updatedAt: at } },
        [event],
      )
      if (lifted) hooks.notifyOutbox({ collection: BLOCKS_COLLECTION, id: _id })
      return lifted !== null
    },

    findActive: (blockerId: string, blockedId: string) =>
      blocks.findOne(
        { _id: blockIdOf(blockerId, blockedId), active: true },
        { projection: { outbox: 0, outboxPending: 0 } },
      ),

    /** The blocker's active blocks, newest first. */
    activeOf: (blockerId: string) =>
      blocks
        .find({ blockerId, active: true }, { projection: { outbox: 0, outboxPending: 0 } })
        .sort({ blockedAt: -1 })
        .toArray(),

    /** user.deleted: every block the user made or was the target of goes. */
    async removeUser(userId: string): Promise<void> {
      await blocks.deleteMany({ blockerId: userId })
      await blocks.deleteMany({ blockedId: userId })
    },
  }
}

export type BlocksRepository = ReturnType<typeof createBlocksRepository>
