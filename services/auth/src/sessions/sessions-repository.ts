import { MongoServerError, type Db } from 'mongodb'
import {
  SESSIONS,
  SESSION_MARKERS,
  type RevokeReason,
  type SessionDoc,
  type SessionMarkerDoc,
} from './session-document'

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

export function createSessionsRepository(db: Db) {
  const sessions = db.collection<SessionDoc>(SESSIONS)
  const markers = db.collection<SessionMarkerDoc>(SESSION_MARKERS)
  return {
    async create(doc: SessionDoc): Promise<void> {
      await sessions.insertOne(doc)
    },

    findById(familyId: string): Promise<SessionDoc | null> {
      return sessions.findOne({ _id: familyId })
    },

    /**
     * Marks a refresh token used. True for exactly one caller per token, however many
     * present it at once; false means it had been used already (a replay).
     */
    async spend(tokenHash: string, family: SessionDoc): Promise<boolean> {
      try {
        await markers.insertOne({
          _id: `spent:${tokenHash}`,
          familyId: family._id,
          userId: family.userId,
          expiresAt: family.expiresAt,
        })
        return true
      } catch (error) {
        if (isDuplicateKey(error)) return false
        throw error
      }
    },

    /** After a successful spend: the family's current secret becomes the new one. */
    async advance(familyId: string, nextHash: string, now: Date): Promise<void> {
      await sessions.updateOne(
        { _id: familyId },
        { $set: { tokenHash: nextHash, rotatedAt: now }, $inc: { generation: 1 } },
      )
    },

    async isRevoked(family: SessionDoc): Promise<boolean> {
      if (family.revokedAt) return true
      // findOne by _id: FerretDB pushes an _id filter down, not a count.
      return (
        (await markers.findOne({ _id: `revoked:${family._id}` }, { projection: { _id: 1 } })) !==
        null
      )
    },

    /** The marker is the fact; `revokedAt` on the family is for people reading the data. */
    async revoke(
      family: Pick<SessionDoc, '_id' | 'userId' | 'expiresAt'>,
      reason: RevokeReason,
      now = new Date(),
    ): Promise<void> {
      try {
        await markers.insertOne({
          _id: `revoked:${family._id}`,
          familyId: family._id,
          userId: family.userId,
          expiresAt: family.expiresAt,
        })
      } catch (error) {
        if (!isDuplicateKey(error)) throw error
      }
      await sessions.updateOne(
        { _id: family._id, revokedAt: null },
        { $set: { revokedAt: now, revokedReason: reason } },
      )
    },

    async revokeAllOfUser(userId: string, reason: RevokeReason, now = new Date()): Promise<number> {
      const live = await sessions
        .find({ userId, revokedAt: null }, { projection: { _id: 1, userId: 1, expiresAt: 1 } })
        .toArray()
      for (const family of live) await this.revoke(family, reason, now)
      return live.length
    },

    async removeAllOfUser(userId: string): Promise<void> {
      await sessions.deleteMany({ userId })
      await markers.deleteMany({ userId })
    },

    /** Housekeeping: families past their absolute lifetime are useless. */
    async removeExpired(before: Date): Promise<number> {
      const families = await sessions.deleteMany({ expiresAt: { $lt: before } })
      const facts = await markers.deleteMany({ expiresAt: { $lt: before } })
      return families.deletedCount + facts.deletedCount
    },
  }
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>
