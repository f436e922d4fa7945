import type { Db } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { BLOCK_SETS_COLLECTION, type BlockSetDocument } from '../blocks/block-sets'

export type BlockChange = 'user.blocked' | 'user.unblocked'

/**
 * For tests of services that keep block sets (docs/blocking.md): announces a block or an
 * unblock exactly as people does (the event on the real broker), then waits until this
 * service's block set of the blocked person says so, so the test's next call already meets
 * the change.
 */
export function createBlockAnnouncer(db: Db, options: { timeoutMs: number }) {
  const blockSets = db.collection<BlockSetDocument>(BLOCK_SETS_COLLECTION)

  return async function announceBlock(
    type: BlockChange,
    blockerId: string,
    blockedId: string,
  ): Promise<void> {
    await publishEvent(
      Topics.peopleUsers,
      newEvent(type, {
        aggregateId: blockerId,
        actorId: blockerId,
        data: { blockerId, blockedId },
      }),
    )
    const blocked = type === 'user.blocked'
    await waitFor(
      async () => {
        const set = await blockSets.findOne({ _id: blockedId })
        return (set?.blockedBy ?? []).includes(blockerId) === blocked
      },
      { timeoutMs: options.timeoutMs, what: `${type} handled` },
    )
  }
}
