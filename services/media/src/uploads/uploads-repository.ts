import type { DatabasePlatform, IndexDefinition } from '@marketplace/service-kit'
import {
  SWEEP_CURSOR_ID,
  UPLOADS_COLLECTION,
  UPLOAD_MINUTES_COLLECTION,
  UPLOAD_QUOTAS_COLLECTION,
  UPLOAD_SWEEP_COLLECTION,
  minuteOf,
  type UploadDocument,
  type UploadMinuteDocument,
  type UploadQuotaDocument,
  type UploadSweepDocument,
} from './upload-documents'

/** Every query below names one document by `_id`: MongoDB needs no index beyond it. */
export const uploadIndexes: IndexDefinition[] = []

type Db = DatabasePlatform['db']

const isDuplicateKey = (error: unknown) => (error as { code?: unknown } | null)?.code === 11000

/** An upsert by `_id`; two instances creating the same document at once: the loser retries. */
async function upsertRetrying<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await write()
    } catch (error) {
      if (attempt < 2 && isDuplicateKey(error)) continue
      throw error
    }
  }
}

export interface UploadsRepository {
  /** Counts one more slot on the quota counter `id`; answers the count including it. */
  countSlot(id: string): Promise<number>
  /** A slot handed out: the sweep will find it under its minute. */
  recordSlot(slot: { key: string; userId: string; quotaId: string; at: Date }): Promise<void>
  /** A post or profile names the key: false when it is not a slot still awaiting the sweep. */
  markAttached(key: string, at: Date): Promise<boolean>
  findMinute(minute: string): Promise<UploadMinuteDocument | null>
  findUpload(key: string): Promise<UploadDocument | null>
  /** The minute is swept: its slots, its quota counters (their day is over) and itself go. */
  forgetMinute(minute: UploadMinuteDocument): Promise<void>
  /**
   * A purged user's slots leave the minute's lists: their upload records, their quota
   * counters and their entries in the minute document go; everyone else's stay for the sweep.
   */
  forgetSlotsOf(
    minute: UploadMinuteDocument,
    slots: { keys: string[]; quotaIds: string[] },
  ): Promise<void>
  /** The last minute swept; null before any slot was ever recorded. */
  sweptThrough(): Promise<string | null>
  /** Moves the cursor on; false when another instance moved it first. */
  advanceCursor(from: string, to: string): Promise<boolean>
}

export function createUploadsRepository(db: Db): UploadsRepository {
  const uploads = db.collection<UploadDocument>(UPLOADS_COLLECTION)
  const minutes = db.collection<UploadMinuteDocument>(UPLOAD_MINUTES_COLLECTION)
  const quotas = db.collection<UploadQuotaDocument>(UPLOAD_QUOTAS_COLLECTION)
  const sweep = db.collection<UploadSweepDocument>(UPLOAD_SWEEP_COLLECTION)
  let cursorStarted = false

  /** Before the first slot is recorded, the sweep's cursor exists and stands before it. */
  async function startCursor(at: Date): Promise<void> {
    if (cursorStarted) return
    await upsertRetrying(() =>
      sweep.updateOne(
        { _id: SWEEP_CURSOR_ID },
        { $setOnInsert: { through: minuteOf(new Date(at.getTime() - 60_000)) } },
        { upsert: true },
      ),
    )
    cursorStarted = true
  }

  return {
    async countSlot(id: string): Promise<number> {
      const after = await upsertRetrying(() =>
        quotas.findOneAndUpdate(
          { _id: id },
          { $inc: { count: 1 } },
          { upsert: true, returnDocument: 'after' },
        ),
      )
      return after?.count ?? 1
    },

    async recordSlot(slot: { key: string; userId: string; quotaId: string; at: Date }) {
      await startCursor(slot.at)
      await upsertRetrying(() =>
        minutes.updateOne(
          { _id: minuteOf(slot.at) },
          { $push: { keys: slot.key }, $addToSet: { quotaIds: slot.quotaId } },
          { upsert: true },
        ),
      )
      await uploads.insertOne({
        _id: slot.key,
        userId: slot.userId,
        createdAt: slot.at,
        attachedAt: null,
      })
    },

    async markAttached(key: string, at: Date): Promise<boolean> {
      const { matchedCount } = await uploads.updateOne(
        { _id: key, attachedAt: null },
        { $set: { attachedAt: at } },
      )
      return matchedCount === 1
    },

    findMinute: (minute: string) => minutes.findOne({ _id: minute }),

    findUpload: (key: string) => uploads.findOne({ _id: key }),

    async forgetMinute(minute: UploadMinuteDocument): Promise<void> {
      // One delete per `_id` rather than `$in`: FerretDB looks an `_id` up by index only
      // when it is compared for equality.
      if (minute.keys.length > 0) {
        await uploads.bulkWrite(
          minute.keys.map((key) => ({ deleteOne: { filter: { _id: key } } })),
          { ordered: false },
        )
      }
      if (minute.quotaIds.length > 0) {
        await quotas.bulkWrite(
          minute.quotaIds.map((id) => ({ deleteOne: { filter: { _id: id } } })),
          { ordered: false },
        )
      }
      await minutes.deleteOne({ _id: minute._id })
    },

    async forgetSlotsOf(minute, slots): Promise<void> {
      if (slots.keys.length > 0) {
        await uploads.bulkWrite(
          slots.keys.map((key) => ({ deleteOne: { filter: { _id: key } } })),
          { ordered: false },
        )
      }
      if (slots.quotaIds.length > 0) {
        await quotas.bulkWrite(
          slots.quotaIds.map((id) => ({ deleteOne: { filter: { _id: id } } })),
          { ordered: false },
        )
      }
      // $pullAll rather than $pull with $in: FerretDB v1 ignores the latter (measured: it
      // matches and modifies nothing).
      await minutes.updateOne(
        { _id: minute._id },
        { $pullAll: { keys: slots.keys, quotaIds: slots.quotaIds } },
      )
    },

    async sweptThrough(): Promise<string | null> {
      return (await sweep.findOne({ _id: SWEEP_CURSOR_ID }))?.through ?? null
    },

    async advanceCursor(from: string, to: string): Promise<boolean> {
      const { modifiedCount } = await sweep.updateOne(
        { _id: SWEEP_CURSOR_ID, through: from },
        { $set: { through: to } },
      )
      return modifiedCount === 1
    },
  }
}
