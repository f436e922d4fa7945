import { createServiceApp } from '../create-app'
import { testMongoUrl } from '../testing/infra-env'
import { signTestToken, testKeyPair } from '../testing/keys'
import { authPlugin, callerOf } from './auth'
import {
  IDEMPOTENCY_COLLECTION,
  IDEMPOTENCY_INDEXES,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyPlugin,
} from './idempotency'
import { mongoPlugin } from './mongodb'

// Keyed writes against the real local database: a repeat gets the first answer and no second
// effect, a repeat while the first is running waits and then gets 409, a key is its caller's
// own, a key reused on another request is refused, and a key whose process died is taken over.

const keys = testKeyPair()
const now = () => Math.floor(Date.now() / 1000)
const tokenOf = (sub: string) =>
  signTestToken(keys.privateKey, {
    sub,
    roles: ['2000'],
    iss: 'marketplace-auth',
    aud: 'marketplace',
    iat: now(),
    exp: now() + 900,
  })

async function buildApp(options: { leaseMs: number; waitMs: number }) {
  const app = await createServiceApp({ serviceName: 'idempotency-test', logLevel: 'silent' })
  await app.register(mongoPlugin, {
    url: testMongoUrl('service_kit_idempotency'),
    indexes: IDEMPOTENCY_INDEXES,
  })
  await app.register(authPlugin, {
    publicKey: Buffer.from(keys.publicKey).toString('base64'),
    issuer: 'marketplace-auth',
    audience: 'marketplace',
  })
  await app.register(idempotencyPlugin, options)
  const things = () => app.mongo.db.collection<{ owner: string; name: string }>('things')
  // Each call stores one more thing: the count of things is the count of effects.
  app.post('/things', { preHandler: app.authenticate }, async (request, reply) => {
    const { name, pauseMs = 0 } = request.body as { name: string; pauseMs?: number }
    await new Promise((resolve) => setTimeout(resolve, pauseMs))
    const stored = await things().insertOne({ owner: callerOf(request).userId, name })
    return reply.code(201).send({ id: String(stored.insertedId), name })
  })
  await app.ready()
  return { app, things }
}

describe('Idempotency-Key on writes', () => {
  let built: Awaited<ReturnType<typeof buildApp>>
  beforeAll(async () => {
    built = await buildApp({ leaseMs: 600, waitMs: 300 })
    await built.app.mongo.db.collection(IDEMPOTENCY_COLLECTION).deleteMany({})
    await built.things().deleteMany({})
  })
  afterAll(async () => {
    await built.app.mongo.db.dropDatabase()
    await built.app.close()
  })

  const post = (user: string, key: string | undefined, body: object) =>
    built.app.inject({
      method: 'POST',
      url: '/things',
      headers: {
        authorization: `Bearer ${tokenOf(user)}`,
        ...(key !== undefined && { 'idempotency-key': key }),
      },
      payload: body,
    })

  it('replays the first answer for a repeat, with no second effect', async () => {
    const first = await post('ann', 'key-replay', { name: 'fence' })
    const repeat = await post('ann', 'key-replay', { name: 'fence' })

    expect(first.statusCode).toBe(201)
    expect(first.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined()
    expect(repeat.statusCode).toBe(201)
    expect(repeat.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true')
    expect(repeat.headers['content-type']).toBe(first.headers['content-type'])
    expect(repeat.json()).toEqual(first.json())
    expect(await built.things().countDocuments({ owner: 'ann', name: 'fence' })).toBe(1)
  })

  it("another caller's key is not theirs: the same key runs their own request", async () => {
    const ann = await post('ann', 'key-shared', { name: 'hedge' })
    const bob = await post('bob', 'key-shared', { name: 'hedge' })

    expect(bob.statusCode).toBe(201)
    expect(bob.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined()
    expect(bob.json().id).not.toBe(ann.json().id)
    expect(await built.things().countDocuments({ owner: 'bob', name: 'hedge' })).toBe(1)
  })

  it('answers 409 with Retry-After to a repeat while the first is still running, then replays', async () => {
    const first = post('ann', 'key-running', { name: 'roof', pauseMs: 1500 })
    // The first has its key before the repeat arrives.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const during = await post('ann', 'key-running', { name: 'roof', pauseMs: 1500 })
    const firstAnswer = await first
    const after = await post('ann', 'key-running', { name: 'roof', pauseMs: 1500 })

    expect(during.statusCode).toBe(409)
    expect(during.json().code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS')
    expect(during.headers['retry-after']).toBe('1')
    expect(firstAnswer.statusCode).toBe(201)
    expect(after.statusCode).toBe(201)
    expect(after.json()).toEqual(firstAnswer.json())
    expect(await built.things().countDocuments({ owner: 'ann', name: 'roof' })).toBe(1)
  })

  it('refuses a key reused on a different request with 422, and a malformed key with 400', async () => {
    await post('ann', 'key-other-body', { name: 'gate' })
    const reused = await post('ann', 'key-other-body', { name: 'shed' })
    const malformed = await post('ann', 'has spaces', { name: 'shed' })

    expect(reused.statusCode).toBe(422)
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED')
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().code).toBe('INVALID_IDEMPOTENCY_KEY')
    expect(await built.things().countDocuments({ name: 'shed' })).toBe(0)
  })

  it('a key whose request died (no renewal) is taken over once its lease runs out', async () => {
    // The same request's fingerprint, from a first run under another key, whose effect is undone.
    const keysStored = built.app.mongo.db.collection(IDEMPOTENCY_COLLECTION)
    await post('ann', 'key-probe', { name: 'porch' })
    const probe = await keysStored.findOne({ callerId: 'ann', key: 'key-probe' })
    await built.things().deleteMany({ name: 'porch' })
    // What a killed instance leaves: the key running, its lease no longer renewed.
    await keysStored.insertOne({
      callerId: 'ann',
      key: 'key-orphan',
      fingerprint: probe!.fingerprint,
      state: 'running',
      leaseUntil: new Date(Date.now() - 1),
      expiresAt: new Date(Date.now() + 60_000),
    })
    const repeat = await post('ann', 'key-orphan', { name: 'porch' })
    const again = await post('ann', 'key-orphan', { name: 'porch' })

    expect(repeat.statusCode).toBe(201)
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true')
    expect(again.json()).toEqual(repeat.json())
    expect(await built.things().countDocuments({ owner: 'ann', name: 'porch' })).toBe(1)
  })

  it('leaves writes without a key, and callers without a token, as they were', async () => {
    expect((await post('ann', undefined, { name: 'path' })).statusCode).toBe(201)
    expect((await post('ann', undefined, { name: 'path' })).statusCode).toBe(201)
    const anonymous = await built.app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'idempotency-key': 'key-anonymous' },
      payload: { name: 'path' },
    })
    expect(anonymous.statusCode).toBe(401)
    expect(await built.things().countDocuments({ owner: 'ann', name: 'path' })).toBe(2)
  })
})
