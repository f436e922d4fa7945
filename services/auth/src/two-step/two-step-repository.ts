import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Db } from 'mongodb'
import { CODE_ATTEMPTS, type CodeAttemptDoc } from '../codes/code-document'
import {
  SIGN_IN_CHALLENGES,
  TWO_STEP,
  type SecondStepMethod,
  type SignInChallengeDoc,
  type TwoStepDoc,
} from './two-step-document'

export const CHALLENGE_TTL_MS = 10 * 60 * 1000
export const CHALLENGE_MAX_ATTEMPTS = 5
/**
 * Wrong second steps in a row (across challenges) before the authenticator is locked. With a
 * stolen password and five tries per challenge, new challenges let a script try a thousand
 * codes a day; locking after this many, for 15 minutes, then 30, 60... (a day at most), leaves
 * it a few dozen.
 */
export const SECOND_STEP_FAILURES_BEFORE_LOCK = 5
export const SECOND_STEP_FIRST_LOCK_MS = 15 * 60 * 1000
export const SECOND_STEP_LONGEST_LOCK_MS = 24 * 60 * 60 * 1000

const hashChallengeId = (challengeId: string) =>
  createHash('sha256').update(challengeId).digest('base64url')

export function createTwoStepRepository(db: Db) {
  const settings = db.collection<TwoStepDoc>(TWO_STEP)
  const challenges = db.collection<SignInChallengeDoc>(SIGN_IN_CHALLENGES)
  // Attempts ride in the codes' attempt collection: one insert per try, counted (FerretDB
  // v1 loses concurrent `$inc`s, inserts are never lost; see code-document.ts).
  const attempts = db.collection<CodeAttemptDoc>(CODE_ATTEMPTS)

  return {
    findSettings(userId: string): Promise<TwoStepDoc | null> {
      return settings.findOne({ _id: userId })
    },

    async setEmail(userId: string, enabled: boolean, now: Date): Promise<void> {
      await settings.updateOne(
        { _id: userId },
        { $set: { email: enabled, updatedAt: now }, $setOnInsert: { recoveryCodeHashes: [] } },
        { upsert: true },
      )
    },

    async setPendingTotp(userId: string, sealedSecret: string, now: Date): Promise<void> {
      await settings.updateOne(
        { _id: userId },
        {
          $set: { pendingTotpSecret: sealedSecret, updatedAt: now },
          $setOnInsert: { email: false, recoveryCodeHashes: [] },
        },
        { upsert: true },
      )
    },

    /** The pending secret becomes the active one, with fresh recovery codes; once. */
    async confirmTotp(
      userId: string,
      input: { sealedSecret: string; step: number; recoveryCodeHashes: string[]; now: Date },
    ): Promise<boolean> {
      const result = await settings.updateOne(
        { _id: userId, pendingTotpSecret: input.sealedSecret },
        {
          $set: {
            totpSecret: input.sealedSecret,
            totpLastStep: input.step,
            recoveryCodeHashes: input.recoveryCodeHashes,
            updatedAt: input.now,
          },
          $unset: { pendingTotpSecret: '' },
        },
      )
      return result.modifiedCount === 1
    },

    async removeTotp(userId: string, now: Date): Promise<void> {
      await settings.updateOne(
        { _id: userId },
        {
          $set: { recoveryCodeHashes: [], updatedAt: now },
          $unset: { totpSecret: '', pendingTotpSecret: '', totpLastStep: '' },
        },
      )
    },

    /**
     * Records an accepted TOTP step; false when that step or a later one was already used,
     * so one code never signs in twice (RFC 6238 §5.2). Of two requests with the same code,
     * the guarded update lets one through.
     */
    async acceptTotpStep(userId: string, step: number): Promise<boolean> {
      const result = await settings.updateOne(
        {
          _id: userId,
          totpSecret: { $exists: true },
          $or: [{ totpLastStep: { $lt: step } }, { totpLastStep: { $exists: false } }],
        },
        { $set: { totpLastStep: step } },
      )
      return result.modifiedCount === 1
    },

    /** Spends one recovery code; false when it is not (or no longer) among the unused ones. */
    async spendRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
      const result = await settings.updateOne(
        { _id: userId, recoveryCodeHashes: codeHash },
        // FerretDB v1 ignores `$pull` with `$in`; `$pullAll` works on both servers.
        { $pullAll: { recoveryCodeHashes: [codeHash] } },
      )
      return result.modifiedCount === 1
    },

    /** Opens a challenge and returns the id only the browser will hold. */
    async openChallenge(input: {
      userId: string
      methods: SecondStepMethod[]
      persist: boolean
      purpose?: SignInChallengeDoc['purpose']
      now: Date
    }): Promise<{ challengeId: string; expiresAt: Date }> {
      const challengeId = randomBytes(32).toString('base64url')
      const expiresAt = new Date(input.now.getTime() + CHALLENGE_TTL_MS)
      await challenges.insertOne({
        _id: hashChallengeId(challengeId),
        userId: input.userId,
        methods: input.methods,
        persist: input.persist,
        ...(input.purpose && { purpose: input.purpose }),
        createdAt: input.now,
        expiresAt,
      })
      return { challengeId, expiresAt }
    },

    async findChallenge(challengeId: string): Promise<SignInChallengeDoc | null> {
      return challenges.findOne({ _id: hashChallengeId(challengeId) })
    },

    /** Counts one try at the challenge, this one included. */
    async recordAttempt(challenge: SignInChallengeDoc): Promise<number> {
      const codeKey = `challenge:${challenge._id}`
      await attempts.insertOne({
        _id: randomUUID(),
        codeKey,
        userId: challenge.userId,
        expiresAt: challenge.expiresAt,
      })
      return attempts.countDocuments({ codeKey })
    },

    /**
     * One more wrong second step of the account. Answers the end of the lock it starts, or
     * null when it starts none. Read, then written: two wrong answers at the same instant
     * may count once (each account's tries are rate-limited anyway).
     */
    async recordSecondStepFailure(userId: string, now: Date): Promise<Date | null> {
      const doc = await settings.findOne({ _id: userId })
      if (!doc) return null
      const failures = (doc.failedSecondSteps ?? 0) + 1
      if (failures < SECOND_STEP_FAILURES_BEFORE_LOCK) {
        await settings.updateOne({ _id: userId }, { $set: { failedSecondSteps: failures } })
        return null
      }
      const locks = (doc.secondStepLocks ?? 0) + 1
      const lockMs = Math.min(
        SECOND_STEP_FIRST_LOCK_MS * 2 ** (locks - 1),
        SECOND_STEP_LONGEST_LOCK_MS,
      )
      const lockedUntil = new Date(now.getTime() + lockMs)
      await settings.updateOne(
        { _id: userId },
        {
          $set: {
            failedSecondSteps: 0,
            secondStepLocks: locks,
            secondStepLockedUntil: lockedUntil,
          },
        },
      )
      return lockedUntil
    },

    /** A successful sign-in: the count of wrong second steps and the locks start again. */
    async clearSecondStepFailures(userId: string): Promise<void> {
      await settings.updateOne(
        { _id: userId },
        { $unset: { failedSecondSteps: '', secondStepLocks: '', secondStepLockedUntil: '' } },
      )
    },

    /** Ends the challenge; true for the one request that did (single use). */
    async closeChallenge(challenge: SignInChallengeDoc): Promise<boolean> {
      return (await challenges.deleteOne({ _id: challenge._id })).deletedCount === 1
    },

    async removeAllOfUser(userId: string): Promise<void> {
      await settings.deleteOne({ _id: userId })
      await challenges.deleteMany({ userId })
    },

    async removeExpired(before: Date): Promise<number> {
      return (await challenges.deleteMany({ expiresAt: { $lt: before } })).deletedCount
    },
  }
}
export type TwoStepRepository = ReturnType<typeof createTwoStepRepository>
