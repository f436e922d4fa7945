import { randomUUID } from 'node:crypto'
import type { Db } from 'mongodb'
import { safeEqual } from '../safe-equal'
import { CODE_ATTEMPTS, ONE_TIME_CODES, type CodeAttemptDoc, type CodeDoc } from './code-document'
import { CODE_MAX_ATTEMPTS, type CodePurpose } from './one-time-codes'

export type CodeCheck =
  | { outcome: 'accepted' }
  | { outcome: 'wrong'; attemptsLeft: number }
  | { outcome: 'expired' | 'exhausted' | 'missing' }

const idOf = (userId: string, purpose: CodePurpose) => `${purpose}:${userId}`

export function createCodesRepository(db: Db) {
  const codes = db.collection<CodeDoc>(ONE_TIME_CODES)
  const attempts = db.collection<CodeAttemptDoc>(CODE_ATTEMPTS)
  return {
    /** Stores a new code; the previous one of the same purpose is void from now on. */
    async issue(input: {
      userId: string
      purpose: CodePurpose
      codeHash: string
      now: Date
      ttlMs: number
    }): Promise<void> {
      const doc: CodeDoc = {
        _id: idOf(input.userId, input.purpose),
        userId: input.userId,
        purpose: input.purpose,
        codeHash: input.codeHash,
        issueId: randomUUID(),
        createdAt: input.now,
        expiresAt: new Date(input.now.getTime() + input.ttlMs),
      }
      await codes.replaceOne({ _id: doc._id }, doc, { upsert: true })
    },

    /**
     * Records one attempt, then judges it: the sixth and later attempts on one code are
     * refused whatever they say; the right code is consumed by a delete that only one
     * request can win.
     */
    async check(input: {
      userId: string
      purpose: CodePurpose
      codeHash: string
      now: Date
    }): Promise<CodeCheck> {
      const current = await codes.findOne({ _id: idOf(input.userId, input.purpose) })
      if (!current) return { outcome: 'missing' }
      if (current.expiresAt <= input.now) return { outcome: 'expired' }
      const codeKey = `${current._id}:${current.issueId}`
      await attempts.insertOne({
        _id: randomUUID(),
        codeKey,
        userId: current.userId,
        expiresAt: current.expiresAt,
      })
      const made = await attempts.countDocuments({ codeKey })
      if (made > CODE_MAX_ATTEMPTS) return { outcome: 'exhausted' }
      if (!safeEqual(current.codeHash, input.codeHash)) {
        return { outcome: 'wrong', attemptsLeft: CODE_MAX_ATTEMPTS - made }
      }
      const consumed = await codes.deleteOne({ _id: current._id, issueId: current.issueId })
      return consumed.deletedCount === 1 ? { outcome: 'accepted' } : { outcome: 'missing' }
    },

    async removeAllOfUser(userId: string): Promise<void> {
      await codes.deleteMany({ userId })
      await attempts.deleteMany({ userId })
    },

    async removeExpired(before: Date): Promise<number> {
      const expired = await codes.deleteMany({ expiresAt: { $lt: before } })
      const spent = await attempts.deleteMany({ expiresAt: { $lt: before } })
      return expired.deletedCount + spent.deletedCount
    },
  }
}
export type CodesRepository = ReturnType<typeof createCodesRepository>
