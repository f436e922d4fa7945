import { MongoServerError, type Db } from 'mongodb'
import type { IndexDefinition } from '@marketplace/service-kit'

export const MESSAGE_NOTICES_COLLECTION = 'message_notices'

/**
 * "This user was told of new messages in this conversation and has not read it since": at
 * most one per conversation and recipient, addressed by both. The message.sent that told
 * them is kept, so its redelivery is recognised as itself and its notification found again
 * when the conversation is read.
 */
export interface MessageNoticeDocument {
  _id: string
  userId: string
  conversationId: string
  /** The message.sent event whose notification told the user. */
  eventId: string
  toldAt: Date
}

export const messageNoticeIndexes: IndexDefinition[] = [
  // The purge: userId = ?. Everything else is by _id.
  { collection: MESSAGE_NOTICES_COLLECTION, keys: { userId: 1 }, options: { name: 'user' } },
]

const idOf = (conversationId: string, userId: string) => `${conversationId}:${userId}`

export function createMessageNoticesRepository(db: Db) {
  const notices = db.collection<MessageNoticeDocument>(MESSAGE_NOTICES_COLLECTION)

  return {
    /**
     * Claims the conversation's notice for this event. 'claimed' when it was free, or already
     * this event's (a redelivery, which then finishes what the first delivery started);
     * 'taken' when another message told the user since their last read.
     */
    async claim(
      conversationId: string,
      userId: string,
      eventId: string,
    ): Promise<'claimed' | 'taken'> {
      const _id = idOf(conversationId, userId)
      try {
        await notices.insertOne({ _id, userId, conversationId, eventId, toldAt: new Date() })
        return 'claimed'
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === 11000)) throw error
      }
      const held = await notices.findOne({ _id })
      // Read since (gone in between): the next message claims it; this one is not told twice.
      return held?.eventId === eventId ? 'claimed' : 'taken'
    },

    /** Gives back a claim whose notification was not stored (the preference is off). */
    release: async (conversationId: string, userId: string, eventId: string) => {
      await notices.deleteOne({ _id: idOf(conversationId, userId), eventId })
    },

    /** The user read the conversation: the next message may tell them again. */
    takeBack: (conversationId: string, userId: string) =>
      notices.findOneAndDelete({ _id: idOf(conversationId, userId) }),

    deleteOfUser: async (userId: string) => {
      await notices.deleteMany({ userId })
    },
  }
}

export type MessageNoticesRepository = ReturnType<typeof createMessageNoticesRepository>
