import type { Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import type { EventHandlers } from '@marketplace/service-kit'

/** The read model's collection, in the database of each service that keeps it. */
export const BLOCK_SETS_COLLECTION = 'block_sets'

/**
 * One user's blocks as a service that serves one user's content to another keeps them
 * (docs/blocking.md): whom the user blocked, and who blocked the user. The two lists are kept
 * apart so that lifting one block never lifts the other direction's; what the user must not
 * see, and must not be seen by, is their union.
 */
export interface BlockSetDocument {
  _id: string
  blocked?: string[]
  blockedBy?: string[]
}

/** Nobody hidden: what a guest, or a user who blocked nobody, gets without a read. */
const NOBODY: ReadonlySet<string> = new Set()

/**
 * The block pairs from `user.blocked` and `user.unblocked` (people service), one document per
 * user read by `_id`: a caller's whole block set is one read, and is small (a person blocks a
 * handful of others), so a feed filters its pages with it in memory. Every write is an
 * `$addToSet` or `$pull`, so a redelivered event changes nothing; one user's blocks travel on
 * one partition (keyed by the blocker), in order.
 *
 * The collection is shared by a service's instances, so every instance answers the same once
 * the event is handled. The blocker's own next reads in the people service see the block at
 * once (it writes both); other services see it when their group has handled the event.
 */
export function createBlockSets(db: Db) {
  const sets = db.collection<BlockSetDocument>(BLOCK_SETS_COLLECTION)

  async function block(blockerId: string, blockedId: string): Promise<void> {
    await sets.updateOne(
      { _id: blockerId },
      { $addToSet: { blocked: blockedId } },
      { upsert: true },
    )
    await sets.updateOne(
      { _id: blockedId },
      { $addToSet: { blockedBy: blockerId } },
      { upsert: true },
    )
  }

  async function unblock(blockerId: string, blockedId: string): Promise<void> {
    await sets.updateOne({ _id: blockerId }, { $pull: { blocked: blockedId } })
    await sets.updateOne({ _id: blockedId }, { $pull: { blockedBy: blockerId } })
  }

  /** user.deleted: the user's own set goes, and the user leaves everyone else's. */
  async function removeUser(userId: string): Promise<void> {
    const own = await sets.findOne({ _id: userId })
    for (const otherId of new Set([...(own?.blocked ?? []), ...(own?.blockedBy ?? [])])) {
      await sets.updateOne({ _id: otherId }, { $pull: { blocked: userId, blockedBy: userId } })
    }
    await sets.deleteOne({ _id: userId })
  }

  /**
   * Everyone hidden from `userId` and from whom `userId` is hidden: those the user blocked
   * and those who blocked the user. A guest (null) hides nobody and costs no read.
   */
  async function hiddenFrom(userId: string | null | undefined): Promise<ReadonlySet<string>> {
    if (!userId) return NOBODY
    const own = await sets.findOne({ _id: userId })
    if (!own) return NOBODY
    const hidden = new Set([...(own.blocked ?? []), ...(own.blockedBy ?? [])])
    return hidden.size === 0 ? NOBODY : hidden
  }

  /** Whether either of the two blocked the other. */
  async function between(userId: string, otherId: string): Promise<boolean> {
    if (userId === otherId) return false
    return (await hiddenFrom(userId)).has(otherId)
  }

  const handlers: EventHandlers = {
    'user.blocked': async ({ data }: DomainEvent<'user.blocked'>) =>
      block(data.blockerId, data.blockedId),
    'user.unblocked': async ({ data }: DomainEvent<'user.unblocked'>) =>
      unblock(data.blockerId, data.blockedId),
    'user.deleted': async ({ data }: DomainEvent<'user.deleted'>) => removeUser(data.userId),
  }

  return { block, unblock, removeUser, hiddenFrom, between, handlers }
}

export type BlockSets = ReturnType<typeof createBlockSets>
