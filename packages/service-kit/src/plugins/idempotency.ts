import { createHash } from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { MongoServerError, type Collection, type ObjectId } from 'mongodb'
import { AppError } from '../errors'
import { outsideRequestCount, type IndexDefinition } from './mongodb'

/**
 * The `Idempotency-Key` request header (IETF httpapi draft "The Idempotency-Key HTTP Header
 * Field", as Stripe uses it): a write that carries one may be sent again, and the repeat gets
 * the first answer instead of a second effect. The gateway sends a keyed write whose instance
 * died under it to the other instance (docs/reliability.md, "A killed instance"); the web app
 * and the load workload send a fresh key with each user action's writes.
 *
 * Each key belongs to its caller (the access token's user): another caller's key is a new key
 * for them. A request without a valid access token is left alone (sign-up and sign-in have
 * no caller to keep a key for; they were never sent twice). The header is optional.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key'
/** Set on an answer that repeats the stored first answer. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed'
export const IDEMPOTENCY_COLLECTION = 'idempotency_keys'

/** The key's caller and key are unique; a key is forgotten a day after it was first used. */
export const IDEMPOTENCY_INDEXES: IndexDefinition[] = [
  {
    collection: IDEMPOTENCY_COLLECTION,
    keys: { callerId: 1, key: 1 },
    options: { name: 'idempotency_caller_key', unique: true },
  },
  {
    collection: IDEMPOTENCY_COLLECTION,
    keys: { expiresAt: 1 },
    options: { name: 'idempotency_expiry', expireAfterSeconds: 0 },
  },
]

export interface IdempotencyOptions {
  /** How long a running request holds its key without renewing it (a killed one lets go). */
  leaseMs?: number
  /** How long a repeat waits for the first request to finish before answering 409. */
  waitMs?: number
  /** How long a key and its answer are kept. */
  keepSeconds?: number
}

interface StoredAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

interface KeyRecord {
  _id?: ObjectId
  callerId: string
  key: string
  /** The method, URL and body of the first request: the same key on another is refused. */
  fingerprint: string
  state: 'running' | 'done'
  leaseUntil?: Date
  answer?: StoredAnswer
  expiresAt: Date
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Stripe's bound; printable ASCII without spaces (what a UUID or a random token is). */
const VALID_KEY = /^[\x21-\x7E]{1,255}$/
/** Headers of the answer that are replayed with it (cookies never are: see `storable`). */
const REPLAYED_HEADERS = ['content-type', 'location', 'x-read-after', 'x-read-after-everyone']
/**
 * Answers that are not stored, so a repeat runs the request again: the service failed or was
 * unavailable (5xx), or the answer said "not now" (the caller's session, a time-out, a
 * conflict with something still under way, a rate limit).
 */
const TRANSIENT_STATUSES = new Set([401, 408, 409, 425, 429])
/**
 * How often a waiting repeat looks at the key again. Not faster: under a killed instance every
 * repeat waits here at once, and each look is a database read on the service's database.
 */
const POLL_MS = 500
const isDuplicateKeyError = (error: unknown) =>
  error instanceof MongoServerError && error.code === 11000

/**
 * Stores each keyed write's answer under its caller and key, replays it for a repeat, and
 * answers 409 for a repeat whose first request is still running after `waitMs`. A running
 * request renews a lease on its key; if its process dies, the lease runs out and a repeat
 * takes the key over and runs (the effect and its answer are two writes, not one
 * transaction: a process killed between them leaves the effect without its answer, and the
 * repeat meets the service's own unique indexes, as a repeat without a key would).
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance, options: IdempotencyOptions = {}) => {
    const leaseMs = options.leaseMs ?? 5000
    const waitMs = options.waitMs ?? leaseMs + 1000
    const keepMs = (options.keepSeconds ?? 24 * 3600) * 1000
    const keys = (): Collection<KeyRecord> =>
      app.mongo.db.collection<KeyRecord>(IDEMPOTENCY_COLLECTION)
    const owned = new WeakMap<FastifyRequest, { id: ObjectId; renewal: NodeJS.Timeout }>()

    const hold = (request: FastifyRequest, id: ObjectId) => {
      const renewal = setInterval(
        () =>
          void outsideRequestCount(() =>
            keys().updateOne(
              { _id: id, state: 'running' },
              { $set: { leaseUntil: new Date(Date.now() + leaseMs) } },
            ),
          ).catch(() => undefined),
        Math.max(50, Math.floor(leaseMs / 3)),
      )
      renewal.unref()
      owned.set(request, { id, renewal })
    }

    app.addHook('preHandler', async (request, reply) => {
      if (!WRITE_METHODS.has(request.method)) return
      const key = request.headers[IDEMPOTENCY_KEY_HEADER]
      if (key === undefined) return
      if (typeof key !== 'string' || !VALID_KEY.test(key)) {
        throw new AppError(
          400,
          'INVALID_IDEMPOTENCY_KEY',
          'Idempotency-Key must be 1 to 255 printable characters without spaces',
        )
      }
      const callerId = await callerIdOf(app, request)
      if (!callerId) return
      const fingerprint = fingerprintOf(request)

      const deadline = Date.now() + waitMs
      for (;;) {
        const now = Date.now()
        try {
          const inserted = await outsideRequestCount(() =>
            keys().insertOne({
              callerId,
              key,
              fingerprint,
              state: 'running',
              leaseUntil: new Date(now + leaseMs),
              expiresAt: new Date(now + keepMs),
            }),
          )
          hold(request, inserted.insertedId)
          return
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error
        }
        const found = await outsideRequestCount(() => keys().findOne({ callerId, key }))
        if (!found) continue // expired between the two
        if (found.fingerprint !== fingerprint) {
          throw new AppError(
            422,
            'IDEMPOTENCY_KEY_REUSED',
            'This Idempotency-Key was used for a different request',
          )
        }
        if (found.state === 'done' && found.answer) return replay(reply, found.answer)
        if (found.leaseUntil && found.leaseUntil.getTime() < Date.now()) {
          // Its request's process stopped renewing it: this one takes the key over.
          const taken = await outsideRequestCount(() =>
            keys().updateOne(
              { _id: found._id, state: 'running', leaseUntil: found.leaseUntil },
              { $set: { leaseUntil: new Date(Date.now() + leaseMs), fingerprint } },
            ),
          )
          if (taken.modifiedCount === 1) {
            hold(request, found._id!)
            return
          }
          continue
        }
        if (Date.now() >= deadline) {
          throw new AppError(
            409,
            'IDEMPOTENCY_REQUEST_IN_PROGRESS',
            'The first request with this Idempotency-Key is still being handled; try again in a moment',
            { 'retry-after': '1' },
          )
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
      }
    })

    app.addHook('onSend', async (request, reply, payload) => {
      const held = owned.get(request)
      if (!held) return payload
      owned.delete(request)
      clearInterval(held.renewal)
      const answer = storable(reply, payload)
      await outsideRequestCount(() =>
        answer
          ? keys().updateOne(
              { _id: held.id },
              { $set: { state: 'done', answer }, $unset: { leaseUntil: '' } },
            )
          : keys().deleteOne({ _id: held.id, state: 'running' }),
      ).catch((error: unknown) => {
        // The answer still goes out; the key keeps its lease, which runs out, and a repeat
        // then runs the request again (as without a key).
        request.log.warn({ err: error }, 'could not store the idempotent answer')
      })
      return payload
    })

    // An answer that never reached onSend (the client left first) lets go of its renewal.
    app.addHook('onResponse', async (request) => {
      const held = owned.get(request)
      if (held) clearInterval(held.renewal)
    })
  },
  { name: 'idempotency', dependencies: ['auth'] },
)

async function callerIdOf(app: FastifyInstance, request: FastifyRequest): Promise<string | null> {
  const authorization = request.headers.authorization
  if (!authorization?.startsWith('Bearer ')) return null
  try {
    const caller = await app.verifyAccessToken(authorization.slice('Bearer '.length))
    return caller.userId
  } catch {
    return null // the route refuses it with its own 401
  }
}

function fingerprintOf(request: FastifyRequest): string {
  const body = Buffer.isBuffer(request.body)
    ? request.body.toString('base64')
    : JSON.stringify(request.body ?? null)
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex')
}

function storable(reply: FastifyReply, payload: unknown): StoredAnswer | null {
  const status = reply.statusCode
  if (status >= 500 || TRANSIENT_STATUSES.has(status)) return null
  if (reply.getHeader('set-cookie') !== undefined) return null
  let body: string
  if (payload === null || payload === undefined) body = ''
  else if (typeof payload === 'string') body = payload
  else if (Buffer.isBuffer(payload)) body = payload.toString('utf8')
  else return null // a stream: not kept
  const headers: Record<string, string> = {}
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name)
    if (value !== undefined) headers[name] = String(value)
  }
  return { status, headers, body }
}

function replay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  reply.code(answer.status).headers(answer.headers).header(IDEMPOTENT_REPLAYED_HEADER, 'true')
  return reply.send(answer.body === '' ? undefined : answer.body)
}
