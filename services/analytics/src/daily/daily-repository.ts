import { MongoServerError, type Db } from 'mongodb'
import { ANALYTICS_DAYS_COLLECTION, expiryOf, type DayDocument } from './day-document'
import { dayOfEvent, tallyDay, type ReceivedEvent } from './daily-tally'

/** One consumed message: its partition offset and the event it carried. */
export interface OffsetEvent {
  offset: number
  event: ReceivedEvent
}

/** Another consumer applied the same day at the same moment (a rebalance): retry the batch. */
export class ConcurrentDayUpdate extends Error {}

const DUPLICATE_KEY = 11000

/** The only code that touches the analytics_days collection. */
export function createDailyRepository(db: Db) {
  const days = db.collection<DayDocument>(ANALYTICS_DAYS_COLLECTION)

  return {
    /**
     * Counts one partition's batch: one `$inc` per day it touches. Each day remembers the
     * last offset of this partition it counted, in the same single-document write as the
     * counters, so a batch delivered again (the process died before Kafka got the commit)
     * counts only what that day has not counted yet, even if the batch's bounds differ.
     * Answers how many events were counted.
     */
    async applyPartitionBatch(partition: number, messages: readonly OffsetEvent[]) {
      const byDay = new Map<string, OffsetEvent[]>()
      for (const message of messages) {
        const day = dayOfEvent(message.event)
        if (!day) continue
        byDay.set(day, [...(byDay.get(day) ?? []), message])
      }
      if (byDay.size === 0) return 0
      const offsetField = `p${partition}`
      const current = new Map(
        (
          await days
            .find(
              { _id: { $in: [...byDay.keys()] } },
              { projection: { routes: 1, errors: 1, helpPages: 1, offsets: 1 } },
            )
            .toArray()
        ).map((doc) => [doc._id, doc]),
      )
      let counted = 0
      for (const [day, dayMessages] of byDay) {
        const doc = current.get(day) ?? null
        const applied = doc?.offsets?.[offsetField]
        const fresh = dayMessages.filter((m) => applied === undefined || m.offset > applied)
        if (fresh.length === 0) continue
        const last = Math.max(...fresh.map((m) => m.offset))
        const inc = tallyDay(
          fresh.map((m) => m.event),
          doc,
        )
        try {
          await days.updateOne(
            // Only over what was read: a concurrent writer makes this miss (or the upsert
            // collide), never count twice.
            {
              _id: day,
              [`offsets.${offsetField}`]: applied === undefined ? { $exists: false } : applied,
            },
            {
              $inc: inc,
              $set: { [`offsets.${offsetField}`]: last },
              $setOnInsert: { expiresAt: expiryOf(day) },
            },
            { upsert: true },
          )
        } catch (error) {
          if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) {
            throw new ConcurrentDayUpdate(
              `day ${day} changed while partition ${partition} was counted`,
            )
          }
          throw error
        }
        counted += fresh.length
      }
      return counted
    },

    /** The days from `from` to `to` (inclusive, `YYYY-MM-DD`) that have figures. */
    async range(from: string, to: string): Promise<DayDocument[]> {
      return days.find({ _id: { $gte: from, $lte: to } }, { projection: { offsets: 0 } }).toArray()
    },

    /** Deletes the days past their expiry (what the TTL index does on MongoDB). */
    async sweepExpired(now = new Date()): Promise<number> {
      const { deletedCount } = await days.deleteMany({ expiresAt: { $lt: now } })
      return deletedCount
    },
  }
}

export type DailyRepository = ReturnType<typeof createDailyRepository>
