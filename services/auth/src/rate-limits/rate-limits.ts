import { MongoServerError, type Db } from 'mongodb'
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
  /** The second step of a sign-in: codes, authenticator codes and recovery codes. */
  twoStepIp: { points: 30, durationSeconds: 15 * 60 },
  twoStepAccount: { points: 10, durationSeconds: 15 * 60 },
  /** Mailing a sign-in code when the person picks e-mail at the prompt. */
  twoStepMailAccount: { points: 3, durationSeconds: 15 * 60 },
  /** Turning two-step on or off re-asks the password: a guessing door like the login. */
  twoStepSettingsAccount: { points: 10, durationSeconds: 15 * 60 },
} as const
export type RateLimitPolicy = keyof typeof RATE_LIMIT_POLICIES

interface WindowDoc {
  /** `<policy>:<key>:<window number>`: every read and write addresses one document by _id. */
  _id: string
  /** `<policy>:<key>`, the key lower-cased (an e-mail, a user id or an address). */
  key: string
  count: number
  expiresAt: Date
}

/**
 * Budgets shared by every auth instance, in MongoDB, as a sliding window approximated from
 * two fixed windows (the current count plus the previous one weighted by how much of it
 * still overlaps; the scheme Cloudflare and nginx use): two reads and one write per check,
 * all by _id, because FerretDB v1 pushes down no other filter (a count by key scanned the
 * whole collection and made logins slower with every request).
 *
 * FerretDB also applies `$inc` as read-modify-write, losing increments under concurrency
 * (docs/local-infrastructure.md), and rate-limiter-flexible's MongoDB store counts exactly
 * that way, so a burst of parallel guesses slipped through it. Here the checks of one key
 * run one after another inside the instance (a per-key queue), so a burst against one
 * instance is counted exactly; on MongoDB `$inc` is atomic across instances too. Refused
 * requests count as well: hammering a closed door keeps it closed.
 */
/**
 * How long (in windows) until the estimate fits the budget again, if nobody tries meanwhile:
 * while this window alone fits, until the previous window's weight has faded enough;
 * otherwise until this window ends and its own weight has faded in the next one.
 */
export function waitFraction(previous: number, current: number, points: number, elapsed: number) {
  if (current <= points && previous > 0)
    return Math.max(0, 1 - (points - current) / previous - elapsed)
  return 1 - elapsed + Math.max(0, 1 - points / current)
}

export function createRateLimits(db: Db, multiplier = 1) {
  const windows = db.collection<WindowDoc>(RATE_LIMITS_COLLECTION)
  const queues = new Map<string, Promise<unknown>>()

  /** Runs `task` after every earlier task of the same key in this instance. */
  function serialized<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = queues.get(key) ?? Promise.resolve()
    const run = previous.then(task, task)
    const settled = run.catch(() => undefined)
    queues.set(key, settled)
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key)
    })
    return run
  }

  const keyOf = (policy: RateLimitPolicy, key: string) => `${policy}:${key.toLowerCase()}`

  async function increment(id: string, key: string, expiresAt: Date): Promise<number> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const after = await windows.findOneAndUpdate(
          { _id: id },
          { $inc: { count: 1 }, $setOnInsert: { key, expiresAt } },
          { upsert: true, returnDocument: 'after' },
        )
        return after?.count ?? 1
      } catch (error) {
        // Two instances creating the same window at once: the loser retries the update.
        if (attempt < 2 && error instanceof MongoServerError && error.code === 11000) continue
        throw error
      }
    }
  }

  /**
   * Counts one hit: `retryAfter` is null within the budget, else the seconds to wait;
   * `estimate` is the sliding count including this hit.
   */
  function hit(
    policy: RateLimitPolicy,
    key: string,
    now: number,
  ): Promise<{ retryAfter: number | null; estimate: number }> {
    const { points: basePoints, durationSeconds } = RATE_LIMIT_POLICIES[policy]
    const points = Math.round(basePoints * multiplier)
    const windowMs = durationSeconds * 1000
    const fullKey = keyOf(policy, key)
    const current = Math.floor(now / windowMs)
    const elapsed = (now - current * windowMs) / windowMs
    return serialized(fullKey, async () => {
      const previous = await windows.findOne({ _id: `${fullKey}:${current - 1}` })
      const count = await increment(
        `${fullKey}:${current}`,
        fullKey,
        new Date((current + 2) * windowMs),
      )
      const estimate = (previous?.count ?? 0) * (1 - elapsed) + count
      if (estimate <= points) return { retryAfter: null, estimate }
      const retryAfter = Math.max(
        1,
        Math.ceil((waitFraction(previous?.count ?? 0, count, points, elapsed) * windowMs) / 1000),
      )
      return { retryAfter, estimate }
    })
  }

  return {
    async ensureIndexes(): Promise<void> {
      await windows.createIndex({ key: 1 }, { name: 'key' })
      await windows.createIndex({ expiresAt: 1 }, { name: 'expires' })
    },

    /**
     * Spends one hit of each named budget; the first exhausted one answers 429. Resolves to
     * each budget's sliding count, this hit included.
     */
    async consume(
      ...checks: Array<[RateLimitPolicy, string]>
    ): Promise<Partial<Record<RateLimitPolicy, number>>> {
      const now = Date.now()
      const spent: Partial<Record<RateLimitPolicy, number>> = {}
      for (const [policy, key] of checks) {
        const { retryAfter, estimate } = await hit(policy, key, now)
        if (retryAfter !== null) {
          throw new TooManyRequestsError(Messages.auth.tooManyAttempts(retryAfter), retryAfter)
        }
        spent[policy] = estimate
      }
      return spent
    },

    /** A successful login forgives the account's failed attempts. */
    async reset(policy: RateLimitPolicy, key: string): Promise<void> {
      const fullKey = keyOf(policy, key)
      const windowMs = RATE_LIMIT_POLICIES[policy].durationSeconds * 1000
      const current = Math.floor(Date.now() / windowMs)
      await serialized(fullKey, async () => {
        await windows.deleteOne({ _id: `${fullKey}:${current}` })
        await windows.deleteOne({ _id: `${fullKey}:${current - 1}` })
      })
    },

    /** Forgets every counter keyed by this account (user.deleted: nothing of it stays). */
    async forgetAccount(key: string): Promise<void> {
      const keys = (Object.keys(RATE_LIMIT_POLICIES) as RateLimitPolicy[]).map((policy) =>
        keyOf(policy, key),
      )
      await windows.deleteMany({ key: { $in: keys } })
    },

    async removeExpired(before: Date): Promise<number> {
      return (await windows.deleteMany({ expiresAt: { $lt: before } })).deletedCount
    },
  }
}
export type RateLimits = ReturnType<typeof createRateLimits>
