import type { AnyBulkWriteOperation, Db } from 'mongodb'
import { MongoBulkWriteError, MongoServerError } from 'mongodb'
import { CONVERSATION_MESSAGES } from '@marketplace/contracts/marketplace'
import { TooManyRequestsError } from '@marketplace/service-kit'
import { INBOXES_COLLECTION, type InboxDocument } from '../inbox/inbox-document'

const WINDOW_MS = 60_000
/** A compare-and-set that keeps losing means something else is wrong: give up loudly. */
const MAX_ATTEMPTS = 20

/**
 * A guarded update below is sent with `upsert: true` on purpose: when its guard no longer
 * holds, the server tries to insert a second inbox with the same `_id` and fails with a
 * duplicate key, and an ordered bulk write stops there. So the writes sent along with the
 * budget's (the recipient's unread count) land only when the budget's does.
 */
const isDuplicateKey = (error: unknown) =>
  (error instanceof MongoServerError || error instanceof MongoBulkWriteError) &&
  error.code === 11000

/** What spending one message wrote: how many of the writes sent along matched, and its undo. */
export interface Spent {
  alongsideMatched: number
  /** Gives the message back (a send refused after the budget was spent: the request closed). */
  giveBack(): Promise<void>
}

/**
 * At most `perMinute` messages per user per minute, counted in the database so every
 * replica shares the count. A window opens with the first message after the last one ended
 * and lasts a minute. The count lives in the sender's inbox document (`sending`), and the
 * write that counts a send also moves the conversation up the sender's own list. Each send
 * adds one with `$inc`, guarded by the window it read and by the budget left, so parallel
 * sends are all counted, none beyond the budget, and only one of them starts the next
 * window. The recipient's side of the send (their unread counts, also in `inboxes`) goes in
 * the same ordered bulk write, right after the budget's update: one command for both inboxes,
 * and nothing of it lands when the budget refuses. A refused send writes nothing.
 */
export function createSendRateLimit(db: Db, options: { perMinute: number }) {
  const inboxes = db.collection<InboxDocument>(INBOXES_COLLECTION)

  /** The budget's update for the window read, or the seconds to wait when it is spent. */
  function budgetUpdate(
    userId: string,
    conversationId: string,
    now: Date,
    window: InboxDocument['sending'],
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
            update: { $inc: { 'sending.count': 1 }, $max: { [activity]: now } },
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
            $set: { sending: { windowStart: now, count: 1 } },
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
     * Spends one message of the caller's budget and lists the conversation as the sender's
     * latest activity, together with `alongside` (updates of other inboxes, applied only when
     * the budget's is); or answers 429 with Retry-After and changes nothing.
     */
    async spend(
      userId: string,
      conversationId: string,
      now: Date,
      alongside: AnyBulkWriteOperation<InboxDocument>[] = [],
    ): Promise<Spent> {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const inbox = await inboxes.findOne({ _id: userId }, { projection: { sending: 1 } })
        const budget = budgetUpdate(userId, conversationId, now, inbox?.sending)
        if ('retryAfter' in budget) {
          throw new TooManyRequestsError(
            CONVERSATION_MESSAGES.tooManyMessages(budget.retryAfter),
            budget.retryAfter,
          )
        }
        try {
          const result = await inboxes.bulkWrite([budget.update, ...alongside], { ordered: true })
          // No error: the budget's update landed (matched, or inserted the inbox), so every
          // other match is one of the writes sent along.
          return {
            alongsideMatched: result.matchedCount + result.upsertedCount - 1,
            giveBack: async () => {
              await inboxes.updateOne(
                { _id: userId, 'sending.windowStart': budget.windowStart },
                { $inc: { 'sending.count': -1 } },
              )
            },
          }
        } catch (error) {
          // Another send changed the window first: read it again.
          if (!isDuplicateKey(error)) throw error
        }
      }
      throw new Error(`could not count a message of ${userId}`)
    },
  }
}

export type SendRateLimit = ReturnType<typeof createSendRateLimit>
