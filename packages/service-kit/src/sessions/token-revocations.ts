import type { Db } from 'mongodb'
import type { EventHandlers } from '../events/event-consumer'
import { outsideRequestCount, type IndexDefinition } from '../plugins/mongodb'

export const TOKEN_REVOCATIONS_COLLECTION = 'token_revocations'

/** Add to the service's mongoPlugin indexes: the cut-off lookup reads the newest per user. */
export const TOKEN_REVOCATIONS_INDEXES: IndexDefinition[] = [
  {
    collection: TOKEN_REVOCATIONS_COLLECTION,
    keys: { userId: 1, validAfter: -1 },
    options: { name: 'cut_off_by_user' },
  },
]

export interface TokenRevocations {
  /** Moves the user's cut-off forward only (an older or duplicate event never moves it back). */
  record(userId: string, validAfter: Date): Promise<void>
  /** For authPlugin's isTokenStillValid: false when the token was issued before the user's cut-off. */
  isTokenStillValid(claims: { sub: string; iat: number }): Promise<boolean>
  /** Consumer handlers: { 'user.tokens-revoked': ... } — plug into a ConsumerDefinition. */
  handlers: EventHandlers
}

export interface TokenRevocationsOptions {
  /** How long a user's cut-off is trusted from memory; another instance's revocation shows after it. */
  cacheMs?: number
  /** Most users remembered at once; the least recently used go first. */
  maxEntries?: number
}

/**
 * One document per revocation instant: `_id` is `<userId>|<ISO instant>`, so a redelivered
 * event is a duplicate key and changes nothing. Documents are never updated; the newest one
 * of a user is the cut-off, and older ones are pruned once a newer one is stored.
 */
interface RevocationDoc {
  _id: string
  userId: string
  validAfter: Date
}

interface CacheEntry {
  /** Whole seconds (the unit of `iat`); -Infinity when the user has no cut-off. */
  cutOff: number
  expiresAt: number
}

const NO_CUT_OFF = Number.NEGATIVE_INFINITY
const DUPLICATE_KEY = 11000

/**
 * Tokens-valid-after for services other than auth: each keeps the latest cut-off per user
 * from `user.tokens-revoked` and refuses access tokens issued before it.
 *
 * Why not one `{ _id: userId, validAfter }` document moved with `$max`: FerretDB v1 (local
 * infra) applies every update operator as read, modify in Go, write the whole document, with
 * nothing in between locked, so concurrent `$max` updates lose the larger value (measured:
 * wrong in about half of the rounds of 20 concurrent writers, even with a read-back and
 * retry), and concurrent upserts of a new `_id` fail with E11000. Inserts of distinct
 * immutable documents and a max at read time are safe on FerretDB and MongoDB alike.
 */
export function createTokenRevocations(
  db: Db,
  options: TokenRevocationsOptions = {},
): TokenRevocations {
  // Only one instance of a service handles a user.tokens-revoked (the group shares it out);
  // the others learn the new cut-off from the database once what they remember is older than
  // this. The event reaches the first in about half a second, so 250 ms keeps "refused within
  // a second" on every instance, for one indexed read per active user and instance every
  // 250 ms at most.
  const cacheMs = options.cacheMs ?? 250
  const maxEntries = options.maxEntries ?? 10_000
  const revocations = db.collection<RevocationDoc>(TOKEN_REVOCATIONS_COLLECTION)
  // A Map iterates in insertion order: re-inserting on use makes the first key the least
  // recently used one.
  const cache = new Map<string, CacheEntry>()
  const loading = new Map<string, Promise<number>>()

  function remember(userId: string, cutOff: number): number {
    // Cut-offs only move forward, so what this instance already knew can never be too strict;
    // this also keeps a slow read that started before record() from undoing it.
    const known = cache.get(userId)?.cutOff ?? NO_CUT_OFF
    const latest = Math.max(known, cutOff)
    cache.delete(userId)
    cache.set(userId, { cutOff: latest, expiresAt: Date.now() + cacheMs })
    if (cache.size > maxEntries) {
      const oldest = cache.keys().next().value
      if (oldest !== undefined) cache.delete(oldest)
    }
    return latest
  }

  async function newestInDb(userId: string): Promise<Date | null> {
    const newest = await revocations.findOne(
      { userId },
      { sort: { validAfter: -1 }, projection: { validAfter: 1 } },
    )
    return newest?.validAfter ?? null
  }

  async function cutOffOf(userId: string): Promise<number> {
    const entry = cache.get(userId)
    if (entry && entry.expiresAt > Date.now()) {
      cache.delete(userId)
      cache.set(userId, entry)
      return entry.cutOff
    }
    // Concurrent requests of one user share one read.
    let pending = loading.get(userId)
    if (!pending) {
      // Not on the request's command count: every route pays it alike (mongodb.ts says why).
      pending = outsideRequestCount(() => newestInDb(userId))
        .then((validAfter) => remember(userId, validAfter ? toSeconds(validAfter) : NO_CUT_OFF))
        .finally(() => loading.delete(userId))
      loading.set(userId, pending)
    }
    return pending
  }

  async function record(userId: string, validAfter: Date): Promise<void> {
    if (Number.isNaN(validAfter.getTime())) throw new Error('validAfter is not a valid date')
    try {
      await revocations.insertOne({
        _id: `${userId}|${validAfter.toISOString()}`,
        userId,
        validAfter,
      })
    } catch (error) {
      // The same instant again (a redelivered event): already stored.
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error
    }
    const newest = (await newestInDb(userId)) ?? validAfter
    remember(userId, toSeconds(newest))
    // Only documents strictly older than one that exists and is never deleted go, so the
    // newest survives whatever other writers do at the same time.
    await revocations.deleteMany({ userId, validAfter: { $lt: newest } })
  }

  return {
    record,
    async isTokenStillValid(claims) {
      const cutOff = await cutOffOf(claims.sub)
      if (cutOff === NO_CUT_OFF) return true
      // A token without a usable iat cannot prove it is newer than the cut-off.
      if (typeof claims.iat !== 'number' || !Number.isFinite(claims.iat)) return false
      // `iat` has whole-second precision, so the cut-off is rounded down to its second: a token
      // issued in the same second as the cut-off survives. The auth service therefore puts
      // every cut-off on the start of the second AFTER the change (see services/auth
      // sessions/revocation-cut-off.ts), so every token minted up to the change dies, and it
      // signs the caller's fresh token once that second has begun.
      return claims.iat >= cutOff
    },
    handlers: {
      'user.tokens-revoked': async (event) => {
        await record(event.data.userId, new Date(event.data.validAfter))
      },
      // The grace period is over: nothing of the user may stay. Their tokens were revoked when
      // the deletion was asked for, 30 days ago, and have long expired (15 minutes).
      'user.deleted': async (event) => {
        await revocations.deleteMany({ userId: event.data.userId })
        cache.delete(event.data.userId)
      },
    },
  }
}

function toSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000)
}
