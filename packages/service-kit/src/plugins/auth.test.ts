import type { FastifyInstance } from 'fastify'
import { createServiceApp } from '../create-app'
import { signTestToken, testKeyPair } from '../testing/keys'
import { assertSelf, authPlugin, callerOf } from './auth'

const keys = testKeyPair()
const now = () => Math.floor(Date.now() / 1000)
const claims = (extra: Record<string, unknown> = {}) => ({
  sub: 'user-1',
  roles: ['2000'],
  iss: 'marketplace-auth',
  aud: 'marketplace',
  iat: now(),
  exp: now() + 900,
  ...extra,
})

describe('authPlugin', () => {
  let app: FastifyInstance
  let revokedBefore = 0
  beforeAll(async () => {
    app = await createServiceApp({ serviceName: 'test', logLevel: 'silent' })
    await app.register(authPlugin, {
      publicKey: Buffer.from(keys.publicKey).toString('base64'),
      issuer: 'marketplace-auth',
      audience: 'marketplace',
      isTokenStillValid: async (c) => c.iat >= revokedBefore,
    })
    app.get('/me', { preHandler: app.authenticate }, async (request) => callerOf(request))
    app.get('/users/:userId', { preHandler: app.authenticate }, async (request) => {
      assertSelf(request, (request.params as { userId: string }).userId)
      return { ok: true }
    })
    await app.ready()
  })
  afterAll(() => app.close())

  const get = (url: string, token?: string) =>
    app.inject({ url, headers: token ? { authorization: `Bearer ${token}` } : {} })

  it('accepts a valid EdDSA token and exposes the caller', async () => {
    const response = await get('/me', signTestToken(keys.privateKey, claims()))
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ userId: 'user-1', roles: ['2000'] })
  })

  it('refuses a request without a token with 401', async () => {
    expect((await get('/me')).statusCode).toBe(401)
  })

  it('refuses a token whose payload was tampered with', async () => {
    const [header, , signature] = signTestToken(keys.privateKey, claims()).split('.')
    const forged = Buffer.from(JSON.stringify(claims({ sub: 'admin', roles: ['2001'] }))).toString(
      'base64url',
    )
    expect((await get('/me', `${header}.${forged}.${signature}`)).statusCode).toBe(401)
  })

  it('refuses an unsigned token with alg "none"', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
    const body = Buffer.from(JSON.stringify(claims())).toString('base64url')
    expect((await get('/me', `${header}.${body}.`)).statusCode).toBe(401)
  })

  it('refuses a token signed by another key', async () => {
    expect((await get('/me', signTestToken(testKeyPair().privateKey, claims()))).statusCode).toBe(
      401,
    )
  })

  it('refuses an expired token, and one for another audience or issuer', async () => {
    const expired = await get('/me', signTestToken(keys.privateKey, claims({ exp: now() - 10 })))
    expect(expired.statusCode).toBe(401)
    expect(expired.json().code).toBe('TOKEN_EXPIRED')
    expect(
      (await get('/me', signTestToken(keys.privateKey, claims({ aud: 'other' })))).statusCode,
    ).toBe(401)
    expect(
      (await get('/me', signTestToken(keys.privateKey, claims({ iss: 'evil' })))).statusCode,
    ).toBe(401)
  })

  it('refuses a token issued before the user revoked their sessions', async () => {
    const token = signTestToken(keys.privateKey, claims({ iat: now() - 60 }))
    revokedBefore = now()
    const response = await get('/me', token)
    revokedBefore = 0
    expect(response.statusCode).toBe(401)
    expect(response.json().code).toBe('TOKEN_REVOKED')
  })

  it('answers 403 when a user names another user in the path (BOLA)', async () => {
    const token = signTestToken(keys.privateKey, claims())
    expect((await get('/users/user-1', token)).statusCode).toBe(200)
    expect((await get('/users/user-2', token)).statusCode).toBe(403)
  })
})
