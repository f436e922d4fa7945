import type { Db } from 'mongodb'
import { MongoServerError } from 'mongodb'
import { CONVERSATION_MESSAGES } from '@marketplace/contracts/marketplace'
import { TooManyRequestsError } from '@marketplace/service-kit'
import { INBOXES_COLLECTION, type InboxDocument } from '../inbox/inbox-document'

const WINDOW_MS = 60_000
/** A compare-and-set that keeps losing means something else is wrong: give up loudly. */
const MAX_ATTEMPTS = 20

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

/**
 * At most `perMinute` messages per user per minute, counted in the database so
 * every replica shares the count. A window opens with the first message after the last one
 * ended and lasts a minute. The count lives in the sender's inbox document (`sending`), and the
 * write that counts a send also moves the conversation up the sender's own list: one write
 * instead of two on every send (the local database's write rate is what bounds the message
 * rate, docs/benchmarks.md). Each send adds one with `$inc`, guarded by the window it read and
 * by the budget left, so parallel sends are all counted, none beyond the budget, and only one
 * of them starts the next window. A refused send writes nothing: the window does not move.
 */
export function createSendRateLimit(db: Db, options: { perMinute: number }) {
  const inboxes = db.collection<InboxDocument>(INBOXES_COLLECTION)

  /** Counts one send at `now`, moving the conversation up; the seconds to wait, else null. */
  async function hit(userId: string, conversationId: string, now: Date): Promise<number | null> {
    const activity = `conversations.${conversationId}.lastActivityAt`
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const inbox = await inboxes.findOne({ _id: userId }, { projection: { sending: 1 } })
      const window = inbox?.sending
      if (window && now.getTime() - window.windowStart.getTime() < WINDOW_MS) {
        if (window.count >= options.perMinute) {
          const endsIn = window.windowStart.getTime() + WINDOW_MS - now.getTime()
          return Math.max(1, Math.ceil(endsIn / 1000))
        }
        const { matchedCount } = await inboxes.updateOne(
          {
            _id: userId,
            'sending.windowStart': window.windowStart,
            'sending.count': { $lt: options.perMinute },
          },
          { $inc: { 'sending.count': 1 }, $max: { [activity]: now } },
        )
        if (matchedCount === 1) return null
        continue
      }
      if (inbox) {
        const { matchedCount } = await inboxes.updateOne(
          window
            ? { _id: userId, 'sending.windowStart': window.windowStart }
            : { _id: userId, sending: { $exists: false } },
          { $set: { sending: { windowStart: now, count: 1 } }, $max: { [activity]: now } },
        )
        if (matchedCount === 1) return null
        continue
      }
      try {
        await inboxes.insertOne({
          _id: userId,
          unreadTotal: 0,
          conversations: { [conversationId]: { unread: 0, lastActivityAt: now } },
          sending: { windowStart: now, count: 1 },
        })
        return null
      } catch (error) {
        if (!isDuplicateKey(error)) throw error
      }
    }
    throw new Error(`could not count a message of ${userId}`)
  }

  return {
    /**
     * Spends one message of the caller's budget and lists the conversation as the sender's
     * latest activity, or answers 429 with Retry-After (and changes nothing).
     */
    async spend(userId: string, conversationId: string, now: Date): Promise<void> {
      const retryAfter = await hit(userId, conversationId, now)
      if (retryAfter !== null) {
        throw new TooManyRequestsError(
          CONVERSATION_MESSAGES.tooManyMessages(retryAfter),
          retryAfter,
        )
      }
    },
  }
}

export type SendRateLimit = ReturnType<typeof createSendRateLimit>
