import { MongoServerError, type Db } from 'mongodb'
import type { RequestActivityDay } from '@marketplace/contracts/api'
import type { IndexDefinition } from '../plugins/mongodb'

/**
 * The user's requests over time (docs/ratings-and-stats.md, "Stats over time"): one bucket
 * per user and UTC month, `_id: '<userId>:2026-11'`, holding per-day counters. Reading 30 or
 * 90 days is at most four look-ups by `_id`, whatever the size of the requests collection.
 * Shared by jobs (requests on posts) and people (requests to people): each fills its own
 * buckets from its own request events (its stats/stats-subscription.ts).
 */
export const REQUEST_ACTIVITY_COLLECTION = 'request_activity'

/** What is counted per day; the series shows the same four, 0 on a day without any. */
export type ActivityField = Exclude<keyof RequestActivityDay, 'date'>

type DayCounters = Partial<Record<ActivityField, number>>

export interface RequestActivityDocument {
  _id: string
  userId: string
  /** YYYY-MM (UTC). */
  month: string
  /** By day of the month, '01' to '31'. */
  days: Record<string, DayCounters>
  /**
   * `<field>:<requestId>` of everything counted here: a redelivered or replayed event, or a
   * request accepted again after its answer was undone, counts once in the month.
   */
  counted: string[]
}

export const requestActivityIndexes: IndexDefinition[] = [
  // Reads and counts go by `_id`; user.deleted removes every bucket of one user.
  {
    collection: REQUEST_ACTIVITY_COLLECTION,
    keys: { userId: 1 },
    options: { name: 'activity_by_user' },
  },
]

export const ACTIVITY_DAYS_DEFAULT = 30
export const ACTIVITY_DAYS_MAX = 90

const DAY_MS = 24 * 60 * 60 * 1000
const FIELDS: ActivityField[] = ['received', 'sent', 'receivedAccepted', 'sentAccepted']

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000
const bucketId = (userId: string, month: string) => `${userId}:${month}`

export function createRequestActivity(db: Db, now: () => Date = () => new Date()) {
  const buckets = db.collection<RequestActivityDocument>(REQUEST_ACTIVITY_COLLECTION)

  return {
    /**
     * Counts one thing that happened to `requestId` at `at` for the user, once. The guard
     * and the counter are one single-document write: the bucket moves only if it has not
     * counted this key yet.
     */
    async count(userId: string, field: ActivityField, requestId: string, at: Date) {
      const iso = at.toISOString()
      const month = iso.slice(0, 7)
      const key = `${field}:${requestId}`
      for (let attempt = 1; ; attempt += 1) {
        try {
          await buckets.updateOne(
            { _id: bucketId(userId, month), counted: { $ne: key } },
            {
              $inc: { [`days.${iso.slice(8, 10)}.${field}`]: 1 },
              $addToSet: { counted: key },
              $setOnInsert: { userId, month },
            },
            { upsert: true },
          )
          return
        } catch (error) {
          // The upsert collides with the bucket's _id when the bucket already counted the
          // key (the filter missed it) or when another event created the bucket meanwhile;
          // a second attempt tells the two apart (it updates, or collides again: counted).
          if (!isDuplicateKey(error)) throw error
          if (attempt >= 2) return
        }
      }
    },

    /** The last `days` UTC days up to today, oldest first, a zero-filled entry per day. */
    async daily(userId: string, days: number): Promise<RequestActivityDay[]> {
      const at = now()
      const today = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())
      const dates = Array.from({ length: days }, (_, index) =>
        new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10),
      )
      const months = [...new Set(dates.map((date) => date.slice(0, 7)))]
      const found = await Promise.all(
        months.map((month) =>
          buckets.findOne({ _id: bucketId(userId, month) }, { projection: { days: 1 } }),
        ),
      )
      const byMonth = new Map(months.map((month, index) => [month, found[index]?.days ?? {}]))
      return dates.map((date) => {
        const counters = byMonth.get(date.slice(0, 7))?.[date.slice(8, 10)] ?? {}
        const day = { date } as RequestActivityDay
        for (const field of FIELDS) day[field] = counters[field] ?? 0
        return day
      })
    },

    /** The account is gone (user.deleted): its history goes with it. */
    async forgetUser(userId: string): Promise<void> {
      await buckets.deleteMany({ userId })
    },
  }
}

export type RequestActivity = ReturnType<typeof createRequestActivity>
