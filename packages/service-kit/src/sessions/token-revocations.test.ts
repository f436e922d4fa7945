import type { FastifyInstance } from 'fastify'
import type { Db, MongoClient } from 'mongodb'
import { createServiceApp } from '../create-app'
import { newEvent } from '../events/new-event'
import { authPlugin, callerOf } from '../plugins/auth'
import { connectMongo, ensureIndexes } from '../plugins/mongodb'
import { testMongoUrl } from '../testing/infra-env'
import { signTestToken, testKeyPair } from '../testing/keys'
import {
  TOKEN_REVOCATIONS_COLLECTION,
  TOKEN_REVOCATIONS_INDEXES,
  createTokenRevocations,
} from './token-revocations'

// Against the real MongoDB-protocol server of infra/local (FerretDB).
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
let userCounter = 0
const newUser = () => `user-${process.pid}-${(userCounter += 1)}`

describe('token revocations', () => {
  let mongo: { client: MongoClient; db: Db }
  beforeAll(async () => {
    mongo = await connectMongo(testMongoUrl('token_revocations'))
    await ensureIndexes(mongo.db, TOKEN_REVOCATIONS_INDEXES)
  })
  afterAll(async () => {
    await mongo.db.dropDatabase()
    await mongo.client.close()
  })

  const storedCutOffs = async (userId: string) =>
    (
      await mongo.db
        .collection(TOKEN_REVOCATIONS_COLLECTION)
        .find({ userId })
        .sort({ validAfter: -1 })
        .toArray()
    ).map((doc) => (doc.validAfter as Date).toISOString())

  it('accepts any token of a user who never revoked anything', async () => {
    const revocations = createTokenRevocations(mongo.db)
    expect(await revocations.isTokenStillValid({ sub: newUser(), iat: 0 })).toBe(true)
  })

  it('refuses tokens issued in an earlier second, keeps those of the same second or later', async () => {
    const userId = newUser()
    const revocations = createTokenRevocations(mongo.db)
    await revocations.record(userId, new Date('2025-03-01T10:00:00.750Z'))

    const at = seconds('2025-03-01T10:00:00Z')
    expect(await revocations.isTokenStillValid({ sub: userId, iat: at - 1 })).toBe(false)
    // The caller's fresh token is minted in the same second as the change: it must survive.
    expect(await revocations.isTokenStillValid({ sub: userId, iat: at })).toBe(true)
    expect(await revocations.isTokenStillValid({ sub: userId, iat: at + 1 })).toBe(true)
    // Another instance reads the same from the database.
    const other = createTokenRevocations(mongo.db)
    expect(await other.isTokenStillValid({ sub: userId, iat: at - 1 })).toBe(false)
    expect(await other.isTokenStillValid({ sub: userId, iat: at })).toBe(true)
  })

  it('only moves the cut-off forward: an older event afterwards changes nothing', async () => {
    const userId = newUser()
    const writer = createTokenRevocations(mongo.db)
    await writer.record(userId, new Date('2025-03-01T10:00:00Z'))
    await writer.record(userId, new Date('2025-03-01T12:00:00Z'))
    await writer.record(userId, new Date('2025-03-01T11:00:00Z'))

    const reader = createTokenRevocations(mongo.db, { cacheMs: 0 })
    const iat = seconds('2025-03-01T11:30:00Z')
    expect(await reader.isTokenStillValid({ sub: userId, iat })).toBe(false)
    expect(await writer.isTokenStillValid({ sub: userId, iat })).toBe(false)
    expect(await storedCutOffs(userId)).toContain('2025-03-01T12:00:00.000Z')
  })

  it('a redelivered event is stored once and older cut-offs are pruned', async () => {
    const userId = newUser()
    const revocations = createTokenRevocations(mongo.db)
    const event = newEvent('user.tokens-revoked', {
      aggregateId: userId,
      actorId: userId,
      data: { userId, validAfter: '2025-03-02T08:00:00.000Z', reason: 'password-changed' },
    })
    const handle = revocations.handlers['user.tokens-revoked']!
    await revocations.record(userId, new Date('2025-03-02T07:00:00Z'))
    await handle(event)
    await handle(event)

    expect(await storedCutOffs(userId)).toEqual(['2025-03-02T08:00:00.000Z'])
  })

  it('concurrent revocations of one user keep the latest cut-off', async () => {
    const userId = newUser()
    const instants = Array.from({ length: 20 }, (_, i) => new Date(Date.UTC(2025, 3, 1, 9, 0, i)))
    // Every instance records every instant, in different orders, all at once.
    const writers = [0, 1, 2].map(() => createTokenRevocations(mongo.db))
    await Promise.all(
      writers.flatMap((writer, w) =>
        (w % 2 === 0 ? instants : [...instants].reverse()).map((instant) =>
          writer.record(userId, instant),
        ),
      ),
    )

    const latest = seconds('2025-04-01T09:00:19Z')
    const reader = createTokenRevocations(mongo.db, { cacheMs: 0 })
    expect(await reader.isTokenStillValid({ sub: userId, iat: latest - 1 })).toBe(false)
    expect(await reader.isTokenStillValid({ sub: userId, iat: latest })).toBe(true)
    expect((await storedCutOffs(userId))[0]).toBe('2025-04-01T09:00:19.000Z')
  })

  it('a revocation recorded by another instance is seen once the cache expires', async () => {
    const userId = newUser()
    const cacheMs = 1000
    const hot = createTokenRevocations(mongo.db, { cacheMs })
    const other = createTokenRevocations(mongo.db, { cacheMs })
    const iat = Math.floor(Date.now() / 1000) - 60
    const firstReadAt = Date.now()
    expect(await hot.isTokenStillValid({ sub: userId, iat })).toBe(true)

    await other.record(userId, new Date())
    // The recording instance knows at once; the other still answers from memory.
    expect(await other.isTokenStillValid({ sub: userId, iat })).toBe(false)
    const cached = await hot.isTokenStillValid({ sub: userId, iat })
    // (On a machine so slow that the entry may already have expired, that part says nothing.)
    const stillFresh = Date.now() - firstReadAt < cacheMs
    expect({ cached, stillFresh }).toEqual({ cached: stillFresh, stillFresh })

    await sleep(cacheMs + 50)
    expect(await hot.isTokenStillValid({ sub: userId, iat })).toBe(false)
  })

  it('remembers a bounded number of users, forgetting the least recently used', async () => {
    const [first, second, third] = [newUser(), newUser(), newUser()]
    const hot = createTokenRevocations(mongo.db, { cacheMs: 60_000, maxEntries: 2 })
    const other = createTokenRevocations(mongo.db)
    for (const userId of [first, second, third]) {
      expect(await hot.isTokenStillValid({ sub: userId, iat: 0 })).toBe(true)
    }
    await other.record(first, new Date('2025-05-01T00:00:00Z'))
    await other.record(third, new Date('2025-05-01T00:00:00Z'))

    // `first` was evicted when `third` came in, so it is read again; `third` is still cached.
    expect(await hot.isTokenStillValid({ sub: first, iat: 0 })).toBe(false)
    expect(await hot.isTokenStillValid({ sub: third, iat: 0 })).toBe(true)
  })

  describe('behind authPlugin', () => {
    const keys = testKeyPair()
    let app: FastifyInstance
    let revocations: ReturnType<typeof createTokenRevocations>
    beforeAll(async () => {
      revocations = createTokenRevocations(mongo.db)
      app = await createServiceApp({ serviceName: 'test', logLevel: 'silent' })
      await app.register(authPlugin, {
        publicKey: keys.publicKey,
        issuer: 'marketplace-auth',
        audience: 'marketplace',
        isTokenStillValid: revocations.isTokenStillValid,
      })
      app.get('/me', { preHandler: app.authenticate }, async (request) => callerOf(request))
      await app.ready()
    })
    afterAll(() => app.close())

    const tokenIssuedAt = (sub: string, iat: number) =>
      signTestToken(keys.privateKey, {
        sub,
        roles: ['2000'],
        iss: 'marketplace-auth',
        aud: 'marketplace',
        iat,
        exp: iat + 900,
      })
    const me = (token: string) =>
      app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } })

    it('refuses a token issued before the revocation with TOKEN_REVOKED, a newer one passes', async () => {
      const userId = newUser()
      const now = Math.floor(Date.now() / 1000)
      const old = tokenIssuedAt(userId, now - 120)
      expect((await me(old)).statusCode).toBe(200)

      await revocations.handlers['user.tokens-revoked']!(
        newEvent('user.tokens-revoked', {
          aggregateId: userId,
          actorId: userId,
          data: {
            userId,
            validAfter: new Date((now - 60) * 1000).toISOString(),
            reason: 'password-reset',
          },
        }),
      )

      const refused = await me(old)
      expect(refused.statusCode).toBe(401)
      expect(refused.json()).toEqual({
        message: expect.any(String),
        code: 'TOKEN_REVOKED',
      })
      const fresh = await me(tokenIssuedAt(userId, now))
      expect(fresh.statusCode).toBe(200)
      expect(fresh.json()).toEqual({ userId, roles: ['2000'] })
      // Other users are not affected.
      expect((await me(tokenIssuedAt(newUser(), now - 120))).statusCode).toBe(200)
    })
  })
})
