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
     * Spends the presented secret and records its successor in one findOneAndUpdate on the
     * family, addressed by _id: of any number of renewals presenting the same secret at once,
     * exactly one still finds it current (MongoDB's single-document atomicity; locally the
     * write serializer in front of FerretDB, docs/local-infrastructure.md). Null for the
     * others, and for a secret that was not current.
     */
    rotate(
      familyId: string,
      presentedHash: string,
      successorHash: string,
      now: Date,
    ): Promise<SessionDoc | null> {
      return sessions.findOneAndUpdate(
        { _id: familyId, tokenHash: presentedHash, revokedAt: null },
        {
          $set: { tokenHash: successorHash, previousTokenHash: presentedHash, rotatedAt: now },
          $inc: { generation: 1 },
        },
        { returnDocument: 'after' },
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
