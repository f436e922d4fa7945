import { MongoServerError, type Db } from 'mongodb'
import { CONVERSATION_MESSAGES } from '@marketplace/contracts/marketplace'
import { TooManyRequestsError } from '@marketplace/service-kit'

export const SEND_RATES_COLLECTION = 'send_rates'

const WINDOW_MS = 60_000

/** One per user (`_id`): the messages sent in the minute that started at `windowStart`. */
interface SendRateDocument {
  _id: string
  windowStart: Date
  count: number
}

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

/**
 * At most `perMinute` messages per user per minute (issue 17 §2), counted in the database so
 * every replica shares the count. A window opens with the first message after the last one
 * ended and lasts a minute; each send adds one with `$inc`, guarded by the window it read, so
 * parallel sends are all counted and only one of them starts the next window. Refused sends
 * count too: hammering does not reopen the door sooner.
 */
export function createSendRateLimit(db: Db, options: { perMinute: number }) {
  const rates = db.collection<SendRateDocument>(SEND_RATES_COLLECTION)

  /** Counts one send at `now`; the seconds to wait when over the budget, else null. */
  async function hit(userId: string, now: Date): Promise<number | null> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const current = await rates.findOne({ _id: userId })
      if (current && now.getTime() - current.windowStart.getTime() < WINDOW_MS) {
        const after = await rates.findOneAndUpdate(
          { _id: userId, windowStart: current.windowStart },
          { $inc: { count: 1 } },
          { returnDocument: 'after' },
        )
        if (!after) continue
        if (after.count <= options.perMinute) return null
        const endsIn = after.windowStart.getTime() + WINDOW_MS - now.getTime()
        return Math.max(1, Math.ceil(endsIn / 1000))
      }
      if (current) {
        const { modifiedCount } = await rates.updateOne(
          { _id: userId, windowStart: current.windowStart },
          { $set: { windowStart: now, count: 1 } },
        )
        if (modifiedCount === 1) return null
        continue
      }
      try {
        await rates.insertOne({ _id: userId, windowStart: now, count: 1 })
        return null
      } catch (error) {
        if (!isDuplicateKey(error)) throw error
      }
    }
    throw new Error(`could not count a message of ${userId}`)
  }

  return {
    /** Spends one message of the caller's budget, or answers 429 with Retry-After. */
    async spend(userId: string, now: Date): Promise<void> {
      const retryAfter = await hit(userId, now)
      if (retryAfter !== null) {
        throw new TooManyRequestsError(
          CONVERSATION_MESSAGES.tooManyMessages(retryAfter),
          retryAfter,
        )
      }
    },

    /** user.deleted: nothing of the user stays. */
    async forget(userId: string): Promise<void> {
      await rates.deleteOne({ _id: userId })
    },
  }
}

export type SendRateLimit = ReturnType<typeof createSendRateLimit>
