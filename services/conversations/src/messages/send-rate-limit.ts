import type { AnyBulkWriteOperation, Db } from 'mongodb'
import { CONVERSATION_MESSAGES } from '@marketplace/contracts/marketplace'
import { TooManyRequestsError } from '@marketplace/service-kit'
import { INBOXES_COLLECTION, type InboxDocument } from '../inbox/inbox-document'

const WINDOW_MS = 60_000

/**
 * At most `perMinute` messages per user per minute, counted in the database so every
 * replica shares the count. A window opens with the first message after the last one ended
 * and lasts a minute. The count lives in the sender's inbox document (`sending`), and the
 * write that counts a send also moves the conversation up the sender's own list. Each send
 * adds one with `$inc`, guarded by the window it read and by the budget left, so parallel
 * sends are all counted, none beyond the budget, and only one of them starts the next
 * window. The update is sent as an upsert in the send's ordered bulk write (send-write.ts):
 * when its guard no longer holds, the server tries to insert a second inbox with the same
 * `_id` and fails with a duplicate key, so the writes after it in that bulk do not land and
 * the window is read again. A refused send writes nothing.
 */
export function createSendRateLimit(db: Db, options: { perMinute: number }) {
  const inboxes = db.collection<InboxDocument>(INBOXES_COLLECTION)

  /** The budget's update for the window read, or the seconds to wait when it is spent. */
  function budgetUpdate(
    userId: string,
    conversationId: string,
    now: Date,
    window: InboxDocument['sending'],
    sendKey: string,
  ): { retryAfter: number } | { update: AnyBulkWriteOperation<InboxDocument>; windowStart: Date } {
    const activity = `conversations.${conversationId}.lastActivityAt`
    if (window && now.getTime() - window.windowStart.getTime() < WINDOW_MS) {
      if (window.count >= options.perMinute) {
        const endsIn = window.windowStart.getTime() + WINDOW_MS - now.getTime()
        return { retryAfter: Math.max(1, Math.ceil(endsIn / 1000)) }
      }
      return {
        windowStart: window.windowStart,
        update: {
          updateOne: {
            filter: {
              _id: userId,
              'sending.windowStart': window.windowStart,
              'sending.count': { $lt: options.perMinute },
            },
            update: {
              $inc: { 'sending.count': 1 },
              $set: { [`sending.sends.${sendKey}`]: true },
              $max: { [activity]: now },
            },
            upsert: true,
          },
        },
      }
    }
    return {
      windowStart: now,
      update: {
        updateOne: {
          filter: window
            ? { _id: userId, 'sending.windowStart': window.windowStart }
            : { _id: userId, sending: { $exists: false } },
          update: {
            $set: { sending: { windowStart: now, count: 1, sends: { [sendKey]: true } } },
            $max: { [activity]: now },
            // Only when the user had no inbox at all (the opening's write not landed yet).
            $setOnInsert: { unreadTotal: 0 },
          },
          upsert: true,
        },
      },
    }
  }

  return {
    /**
     * The update that spends one message of the caller's budget and lists the conversation as
     * the sender's latest activity, for the send's bulk write (send-write.ts), from the window
     * read now; or 429 with Retry-After, nothing written. `sendKey` (unique to this attempt)
     * is recorded in the window, so `landed` can tell whether this update went through.
     */
    async budget(
      userId: string,
      conversationId: string,
      now: Date,
      sendKey: string,
    ): Promise<{ update: AnyBulkWriteOperation<InboxDocument>; windowStart: Date }> {
      const inbox = await inboxes.findOne({ _id: userId }, { projection: { sending: 1 } })
      const budget = budgetUpdate(userId, conversationId, now, inbox?.sending, sendKey)
      if ('retryAfter' in budget) {
        throw new TooManyRequestsError(
          CONVERSATION_MESSAGES.tooManyMessages(budget.retryAfter),
          budget.retryAfter,
        )
      }
      return budget
    },

    /** Whether the budget's update made with `sendKey` landed. */
    async landed(userId: string, sendKey: string): Promise<boolean> {
      const inbox = await inboxes.findOne({ _id: userId }, { projection: { sending: 1 } })
      return inbox?.sending?.sends?.[sendKey] === true
    },

    /** Gives a spent message back (a send refused after its budget's update landed). */
    async giveBack(userId: string, windowStart: Date): Promise<void> {
      await inboxes.updateOne(
        { _id: userId, 'sending.windowStart': windowStart },
        { $inc: { 'sending.count': -1 } },
      )
    },
  }
}

export type SendRateLimit = ReturnType<typeof createSendRateLimit>
