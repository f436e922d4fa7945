import { MongoServerError, type Db } from 'mongodb'
import type { IndexDefinition } from '@marketplace/service-kit'

export const SUPPORT_WINDOWS = 'support_windows'

interface SupportWindowDoc {
  /** `<client address>:<window number>`: every hit is one write addressed by _id. */
  _id: string
  count: number
  /** The window's end: the document is useless afterwards. */
  expiresAt: Date
}

/**
 * MongoDB removes ended windows itself (TTL); FerretDB ignores TTL, so each instance also
 * sweeps them (`removeExpired`), by the same index.
 */
export const supportWindowIndexes: IndexDefinition[] = [
  {
    collection: SUPPORT_WINDOWS,
    keys: { expiresAt: 1 },
    options: { name: 'expires', expireAfterSeconds: 0 },
  },
]

/**
 * The contact form's budget per client address, shared by every notifications instance: a
 * fixed window counted in one document per address and window, incremented by one
 * findOneAndUpdate (atomic on MongoDB; locally through the write serializer in front of
 * FerretDB, docs/local-infrastructure.md). Counted in memory, each instance gave a sender
 * its own budget, and the gateway's address stood for every sender.
 */
export function createSupportRateLimit(db: Db, limit: { max: number; windowMs: number }) {
  const windows = db.collection<SupportWindowDoc>(SUPPORT_WINDOWS)

  async function increment(id: string, expiresAt: Date): Promise<number> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const after = await windows.findOneAndUpdate(
          { _id: id },
          { $inc: { count: 1 }, $setOnInsert: { expiresAt } },
          { upsert: true, returnDocument: 'after' },
        )
        return after?.count ?? 1
      } catch (error) {
        // Two instances opening the same window at once: the loser's retry increments it.
        if (attempt < 2 && error instanceof MongoServerError && error.code === 11000) continue
        throw error
      }
    }
  }

  return {
    /**
     * Counts one message from `clientAddress`, refused ones included (hammering a closed
     * door keeps it closed). Null within the budget, else the seconds until the window ends.
     */
    async hit(clientAddress: string, now = Date.now()): Promise<number | null> {
      const window = Math.floor(now / limit.windowMs)
      const endsAt = (window + 1) * limit.windowMs
      const count = await increment(`${clientAddress}:${window}`, new Date(endsAt))
      return count <= limit.max ? null : Math.max(1, Math.ceil((endsAt - now) / 1000))
    },

    async removeExpired(now = new Date()): Promise<number> {
      return (await windows.deleteMany({ expiresAt: { $lt: now } })).deletedCount
    },
  }
}
export type SupportRateLimit = ReturnType<typeof createSupportRateLimit>
