import type { OutboxFields } from '@marketplace/service-kit'

export const BLOCKS_COLLECTION = 'blocks'

/**
 * One user's block of another (docs/blocking.md), the source of truth: `user.blocked` and
 * `user.unblocked` ride in its outbox. Unblocking keeps the document (`active: false`), so a
 * block and its lifting are guarded writes on one document, each with its event, and a
 * second block after an unblock is the same document again.
 */
export interface BlockDocument extends OutboxFields {
  /** `<blockerId>:<blockedId>`: one document per ordered pair. */
  _id: string
  blockerId: string
  blockedId: string
  active: boolean
  /** When the current block was made (the list's order). */
  blockedAt: Date
  updatedAt: Date
}

export const blockIdOf = (blockerId: string, blockedId: string) => `${blockerId}:${blockedId}`
