import { randomUUID } from 'node:crypto'
import type { Db } from 'mongodb'
import { Messages } from '@marketplace/contracts/validation'
import { TooManyRequestsError } from '@marketplace/service-kit'

export const RATE_LIMITS_COLLECTION = 'rate_limits'

/**
 * Budgets per client address and per account (the e-mail), for every path an attacker
 * would hammer: password guessing, code guessing, mail bombing. Per-IP budgets are looser
 * (offices and phones share addresses); per-account ones are tight. Each is checked before
 * any password hash is computed or mail sent.
 */
export const RATE_LIMIT_POLICIES = {
  loginIp: { points: 30, durationSeconds: 15 * 60 },
  loginAccount: { points: 10, durationSeconds: 15 * 60 },
  signupIp: { points: 10, durationSeconds: 60 * 60 },
  confirmIp: { points: 30, durationSeconds: 15 * 60 },
  confirmAccount: { points: 10, durationSeconds: 15 * 60 },
  resendIp: { points: 10, durationSeconds: 60 * 60 },
  resendAccount: { points: 3, durationSeconds: 15 * 60 },
  forgotIp: { points: 10, durationSeconds: 60 * 60 },
  forgotAccount: { points: 3, durationSeconds: 15 * 60 },
  resetIp: { points: 30, durationSeconds: 15 * 60 },
  resetAccount: { points: 10, durationSeconds: 15 * 60 },
  changePasswordAccount: { points: 5, durationSeconds: 15 * 60 },
} as const
export type RateLimitPolicy = keyof typeof RATE_LIMIT_POLICIES

interface HitDoc {
  _id: string
  /** `<policy>:<key>`, the key lower-cased (an e-mail, a user id or an address). */
  key: string
  at: Date
  expiresAt: Date
}

/**
 * A sliding-window log in MongoDB, shared by every auth instance: each request inserts one
 * hit and counts the hits of its key inside the window. We first used rate-limiter-flexible's
 * MongoDB store, but it counts with findOneAndUpdate + $inc, and FerretDB v1 loses
 * concurrent increments (measured: 50 parallel $inc on one document leave +10), so a burst
 * of parallel guesses would slip through. Inserts are never lost, on FerretDB or MongoDB,
 * so counting them holds under any concurrency. Refused requests count too: hammering a
 * closed door keeps it closed.
 */
export function createRateLimits(db: Db, multiplier = 1) {
  const hits = db.collection<HitDoc>(RATE_LIMITS_COLLECTION)
  const budget = (policy: RateLimitPolicy) => {
    const { points, durationSeconds } = RATE_LIMIT_POLICIES[policy]
    return { points: Math.round(points * multiplier), windowMs: durationSeconds * 1000 }
  }
  const keyOf = (policy: RateLimitPolicy, key: string) => `${policy}:${key.toLowerCase()}`

  async function hit(policy: RateLimitPolicy, key: string, now: Date): Promise<number | null> {
    const { points, windowMs } = budget(policy)
    const fullKey = keyOf(policy, key)
    const windowStart = new Date(now.getTime() - windowMs)
    await hits.insertOne({
      _id: randomUUID(),
      key: fullKey,
      at: now,
      expiresAt: new Date(now.getTime() + windowMs),
    })
    const inWindow = await hits.countDocuments({ key: fullKey, at: { $gt: windowStart } })
    if (inWindow <= points) return null
    // Free again when enough of the oldest hits in the window have aged out of it.
    const oldestThatMustLeave = await hits
      .find({ key: fullKey, at: { $gt: windowStart } }, { projection: { at: 1 } })
      .sort({ at: 1 })
      .skip(inWindow - points - 1)
      .limit(1)
      .next()
    const freeAt = (oldestThatMustLeave?.at.getTime() ?? now.getTime()) + windowMs
    return Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000))
  }

  return {
    async ensureIndexes(): Promise<void> {
      await hits.createIndex({ key: 1, at: 1 }, { name: 'key_at' })
      await hits.createIndex({ expiresAt: 1 }, { name: 'expires' })
    },

    /** Spends one hit of each named budget; the first exhausted one answers 429. */
    async consume(...checks: Array<[RateLimitPolicy, string]>): Promise<void> {
      const now = new Date()
      for (const [policy, key] of checks) {
        const retryAfter = await hit(policy, key, now)
        if (retryAfter !== null) {
          throw new TooManyRequestsError(Messages.auth.tooManyAttempts(retryAfter), retryAfter)
        }
      }
    },

    /** A successful login forgives the account's failed attempts. */
    async reset(policy: RateLimitPolicy, key: string): Promise<void> {
      await hits.deleteMany({ key: keyOf(policy, key) })
    },

    /** Forgets every counter keyed by this account (user.deleted: nothing of it stays). */
    async forgetAccount(key: string): Promise<void> {
      const keys = (Object.keys(RATE_LIMIT_POLICIES) as RateLimitPolicy[]).map((policy) =>
        keyOf(policy, key),
      )
      await hits.deleteMany({ key: { $in: keys } })
    },

    async removeExpired(before: Date): Promise<number> {
      return (await hits.deleteMany({ expiresAt: { $lt: before } })).deletedCount
    },
  }
}
export type RateLimits = ReturnType<typeof createRateLimits>
