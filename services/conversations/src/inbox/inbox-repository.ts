import { MongoServerError, type AnyBulkWriteOperation, type Db } from 'mongodb'
import type { IndexDefinition } from '@marketplace/service-kit'
import { INBOXES_COLLECTION, type InboxDocument, type InboxEntry } from './inbox-document'

/** Inboxes are read and written by `_id` only (docs/conversations.md): no other index. */
export const inboxIndexes: IndexDefinition[] = []

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

/** A compare-and-set that keeps losing means something else is wrong: give up loudly. */
const MAX_ATTEMPTS = 50

export interface UnreadCounts {
  unreadCount: number
  unreadTotal: number
}

export function createInboxRepository(db: Db) {
  const inboxes = db.collection<InboxDocument>(INBOXES_COLLECTION)
  const entry = (conversationId: string) => `conversations.${conversationId}`

  const countsOf = (inbox: InboxDocument | null, conversationId: string): UnreadCounts => ({
    unreadCount: inbox?.conversations?.[conversationId]?.unread ?? 0,
    unreadTotal: inbox?.unreadTotal ?? 0,
  })

  /**
   * Lists the conversation in the user's inbox; a replay leaves the entry (and its count)
   * as it is. The inbox is created with the user's first conversation.
   */
  async function add(userId: string, conversationId: string, at: Date): Promise<void> {
    const fresh: InboxEntry = { unread: 0, lastActivityAt: at }
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        await inboxes.updateOne(
          { _id: userId, [entry(conversationId)]: { $exists: false } },
          { $set: { [entry(conversationId)]: fresh }, $setOnInsert: { unreadTotal: 0 } },
          { upsert: true },
        )
        return
      } catch (error) {
        if (!isDuplicateKey(error)) throw error
        // Either the entry is there already (the filter missed, the upsert collided with the
        // inbox) or another conversation created the inbox at the same moment: look.
        const inbox = await inboxes.findOne({ _id: userId })
        if (inbox?.conversations?.[conversationId]) return
      }
    }
    throw new Error(`could not add conversation ${conversationId} to the inbox of ${userId}`)
  }

  return {
    find: (userId: string) => inboxes.findOne({ _id: userId }),

    countsOf,

    add,

    /**
     * One more unread message for the recipient, as an update to send in the sender's bulk
     * write (messages/send-write.ts): the conversation's count and the total rise in one
     * single-document write. It matches nothing while the conversation is missing from the
     * inbox (the opening's write has not landed): then `messageArrived` makes the entry.
     */
    messageArrivedUpdate(
      userId: string,
      conversationId: string,
      at: Date,
    ): AnyBulkWriteOperation<InboxDocument> {
      return {
        updateOne: {
          filter: { _id: userId, [entry(conversationId)]: { $exists: true } },
          update: {
            $inc: { unreadTotal: 1, [`${entry(conversationId)}.unread`]: 1 },
            $max: { [`${entry(conversationId)}.lastActivityAt`]: at },
          },
        },
      }
    },

    /** The unread counts now (after a message arrived: what message.sent tells the badges). */
    async counts(userId: string, conversationId: string): Promise<UnreadCounts> {
      const inbox = await inboxes.findOne(
        { _id: userId },
        { projection: { unreadTotal: 1, [`${entry(conversationId)}.unread`]: 1 } },
      )
      return countsOf(inbox, conversationId)
    },

    /**
     * One more unread message for the recipient: the conversation's count and the total
     * rise in one write, which answers both. The path of a send whose bulk write found no
     * entry for the conversation in the recipient's inbox.
     */
    async messageArrived(userId: string, conversationId: string, at: Date): Promise<UnreadCounts> {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const after = await inboxes.findOneAndUpdate(
          { _id: userId, [entry(conversationId)]: { $exists: true } },
          {
            $inc: { unreadTotal: 1, [`${entry(conversationId)}.unread`]: 1 },
            $max: { [`${entry(conversationId)}.lastActivityAt`]: at },
          },
          { returnDocument: 'after' },
        )
        if (after) return countsOf(after, conversationId)
        // The opening's inbox write has not landed (or was lost in a crash): make it now.
        await add(userId, conversationId, at)
      }
      throw new Error(`no inbox entry for ${conversationId} of ${userId}`)
    },

    /**
     * Everything in the conversation is read: its count goes to 0 and the total drops by the
     * same number, in one write guarded by the count it read (a message arriving between the
     * read and the write makes it miss, and it reads again). Answers the counts after, and
     * how many it cleared.
     */
    async markRead(
      userId: string,
      conversationId: string,
    ): Promise<UnreadCounts & { cleared: number }> {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const inbox = await inboxes.findOne({ _id: userId })
        const unread = inbox?.conversations?.[conversationId]?.unread ?? 0
        if (!inbox || unread === 0) return { ...countsOf(inbox, conversationId), cleared: 0 }
        const after = await inboxes.findOneAndUpdate(
          { _id: userId, [`${entry(conversationId)}.unread`]: unread },
          {
            $set: { [`${entry(conversationId)}.unread`]: 0 },
            $inc: { unreadTotal: -unread },
          },
          { returnDocument: 'after' },
        )
        if (after) return { ...countsOf(after, conversationId), cleared: unread }
      }
      throw new Error(`could not mark ${conversationId} read for ${userId}`)
    },

    /** user.deleted: the purged user's own inbox goes (the other side keeps theirs). */
    async delete(userId: string): Promise<void> {
      await inboxes.deleteOne({ _id: userId })
    },
  }
}

export type InboxRepository = ReturnType<typeof createInboxRepository>
