import { Messages } from '@marketplace/contracts/validation'
import { authPlugin, createServiceApp } from '@marketplace/service-kit'
import { signTestToken, startEventProbe } from '@marketplace/service-kit/testing'
import { Topics } from '@marketplace/contracts/events'
import type { FastifyInstance } from 'fastify'
import {
  cookiesOf,
  signupPayload,
  startAuthTestApp,
  uniqueEmail,
  uniqueIp,
} from '../test/auth-test-app'
import { PASSWORD, verifiedAccount } from '../test/accounts'

// Against the real FerretDB, Kafka and SMTP servers of infra/local.
let app: FastifyInstance
let keys: { publicKey: string; privateKey: string }
const ORIGIN = 'http://localhost:80'

beforeAll(async () => {
  ;({ app, keys } = await startAuthTestApp('auth_login'))
  await app.events.ready
})
afterAll(async () => {
  await app?.close()
})

function login(body: unknown, ip = uniqueIp()) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/direct-login',
    payload: body as object,
    headers: { 'x-forwarded-for': ip, origin: ORIGIN },
  })
}

function refresh(cookies: Record<string, string>, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/refresh',
    cookies,
    headers: { origin: ORIGIN, 'x-xsrf-token': cookies['XSRF-TOKEN'] ?? '', ...headers },
  })
}

function setCookieHeaders(response: { headers: Record<string, unknown> }): string[] {
  const value = response.headers['set-cookie']
  return Array.isArray(value) ? value : value ? [String(value)] : []
}

describe('POST /api/auth/direct-login', () => {
  it.each([
    [{}, 'nothing'],
    [{ email: 'a@b.co' }, 'no password'],
    [{ password: PASSWORD }, 'no email'],
    [{ email: '   ', password: PASSWORD }, 'a blank email'],
    [{ email: 42, password: PASSWORD }, 'an email that is not text'],
  ])('answers 400 "Missing email or password" for %o (%s)', async (body, _why) => {
    const response = await login(body)
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toBe(Messages.login.missingCredentials)
  })

  it('answers 404 "User not found" for an unknown address and 401 for a wrong password', async () => {
    const { email } = await verifiedAccount(app, 'wrong')
    const unknown = await login({ email: uniqueEmail('ghost'), password: PASSWORD })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().message).toBe(Messages.login.userNotFound)
    const wrong = await login({ email, password: 'Analytic1843?' })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json().message).toBe(Messages.login.invalidCredentials)
  })

  it('spends about the same time on an unknown address as on a wrong password', async () => {
    const { email } = await verifiedAccount(app, 'timing')
    const time = async (body: object) => {
      const started = process.hrtime.bigint()
      await login(body)
      return Number(process.hrtime.bigint() - started) / 1e6
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const unknown: number[] = []
    const wrong: number[] = []
    for (let i = 0; i < 5; i += 1) {
      unknown.push(await time({ email: uniqueEmail('ghost'), password: PASSWORD }))
      wrong.push(await time({ email, password: 'Wrong1234!' }))
    }
    // Both pay one argon2 verification; without it the unknown address would answer in a
    // few milliseconds against tens for a wrong password.
    expect(median(unknown) / median(wrong)).toBeGreaterThan(0.5)
  })

  it('tells an unverified account to verify, only once the password is right', async () => {
    const email = uniqueEmail('unverified')
    await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupPayload(email, { password: PASSWORD }),
      headers: { 'x-forwarded-for': uniqueIp() },
    })
    expect((await login({ email, password: 'Nope1234!' })).statusCode).toBe(401)
    const response = await login({ email, password: PASSWORD })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({
      message: Messages.auth.emailNotVerified,
      code: 'EMAIL_NOT_VERIFIED',
    })
  })

  it('answers the user and an access token, and sets the session cookies', async () => {
    const { email } = await verifiedAccount(app, 'login')
    const response = await login({ email: ` ${email.toUpperCase()}`, password: PASSWORD })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'user'])
    expect(body.user).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      phoneNumber: '(212) 555-0100',
      isWorker: false,
      roles: ['2000'],
    })
    const [, payload] = body.accessToken.split('.')
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
    expect(claims).toMatchObject({
      sub: body.user._id,
      roles: ['2000'],
      iss: 'marketplace-auth',
      aud: 'marketplace',
    })
    expect(claims.exp - claims.iat).toBe(15 * 60)

    const [refreshCookie, xsrfCookie] = ['refresh_token', 'XSRF-TOKEN'].map((name) =>
      setCookieHeaders(response).find((header) => header.startsWith(`${name}=`)),
    )
    expect(refreshCookie).toMatch(/; Path=\/(;|$)/)
    expect(refreshCookie).toMatch(/; HttpOnly/)
    expect(refreshCookie).toMatch(/; SameSite=Strict/)
    // Without "Keep me signed in": a browser-session cookie (no Max-Age, no Expires).
    expect(refreshCookie).not.toMatch(/Max-Age|Expires/)
    // Plain http here; Secure appears over https (next test).
    expect(refreshCookie).not.toMatch(/; Secure/)
    expect(xsrfCookie).toBeDefined()
    expect(xsrfCookie).not.toMatch(/HttpOnly/)
  })

  it('with "Keep me signed in" the cookies persist for 30 days, and are Secure over https', async () => {
    const { email } = await verifiedAccount(app, 'persist')
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/direct-login',
      payload: { email, password: PASSWORD, persist: true },
      // As the gateway forwards a browser on https.
      headers: { 'x-forwarded-for': uniqueIp(), 'x-forwarded-proto': 'https' },
    })
    expect(response.statusCode).toBe(200)
    for (const name of ['refresh_token', 'XSRF-TOKEN']) {
      const header = setCookieHeaders(response).find((h) => h.startsWith(`${name}=`))!
      const maxAge = Number(header.match(/Max-Age=(\d+)/)?.[1])
      expect(maxAge).toBeGreaterThan(30 * 24 * 3600 - 60)
      expect(maxAge).toBeLessThanOrEqual(30 * 24 * 3600)
      expect(header).toMatch(/; Secure/)
    }
  })

  it('answers 429 with Retry-After after ten attempts on one account', async () => {
    const { email } = await verifiedAccount(app, 'limited')
    const statuses: number[] = []
    let limited: { headers: Record<string, unknown>; json(): { message: string } } | undefined
    for (let i = 0; i < 11; i += 1) {
      const response = await login({ email, password: 'Wrong1234!' })
      statuses.push(response.statusCode)
      if (response.statusCode === 429) limited = response
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true)
    expect(statuses[10]).toBe(429)
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited!.json().message).toMatch(/^Too many attempts/)
    // Even the right password waits for the window to pass.
    expect((await login({ email, password: PASSWORD })).statusCode).toBe(429)
  })

  it('holds the per-account budget under a parallel burst', async () => {
    const { email } = await verifiedAccount(app, 'burst')
    const statuses = (
      await Promise.all(Array.from({ length: 25 }, () => login({ email, password: 'Wrong1234!' })))
    ).map((response) => response.statusCode)
    // Ten guesses per 15 minutes, however they are sent.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(15)
  })
})

describe('POST /api/auth/refresh', () => {
  async function loggedIn(persist = false) {
    const { email } = await verifiedAccount(app, 'refresh')
    const response = await login({ email, password: PASSWORD, persist })
    return { body: response.json(), cookies: cookiesOf(response) }
  }

  it('rotates the refresh token and answers { accessToken, user, roles }', async () => {
    const { body, cookies } = await loggedIn()
    const response = await refresh(cookies)
    expect(response.statusCode).toBe(200)
    const renewed = response.json()
    expect(renewed).toEqual({
      accessToken: expect.any(String),
      user: body.user,
      roles: ['2000'],
    })
    const next = cookiesOf(response)
    expect(next.refresh_token).toBeDefined()
    expect(next.refresh_token).not.toBe(cookies.refresh_token)
    // The XSRF token is bound to the session, not to one rotation.
    expect(next['XSRF-TOKEN']).toBe(cookies['XSRF-TOKEN'])
    // And the new one renews again.
    expect((await refresh({ ...cookies, ...next })).statusCode).toBe(200)
  })

  /** Moves the family's last renewal back past the grace window. */
  async function graceWindowOver(cookies: Record<string, string>) {
    const familyId = cookies.refresh_token!.split('.')[0]
    await app.mongo.db
      .collection<{ _id: string }>('sessions')
      .updateOne({ _id: familyId }, { $set: { rotatedAt: new Date(Date.now() - 11_000) } })
  }

  it('revokes the whole family when a rotated token is used again after the grace window', async () => {
    const { cookies } = await loggedIn()
    const first = await refresh(cookies)
    const current = { ...cookies, ...cookiesOf(first) }
    await graceWindowOver(cookies)
    // An attacker replays the old token: refused, and the family dies...
    const replay = await refresh(cookies)
    expect(replay.statusCode).toBe(401)
    expect(replay.json().message).toBe(Messages.auth.sessionEnded)
    // ...so the legitimate holder of the newest token is signed out too.
    expect((await refresh(current)).statusCode).toBe(401)
  })

  it('two tabs renewing with the same cookie at once both get the same successor', async () => {
    const { body, cookies } = await loggedIn()
    const answers = await Promise.all([refresh(cookies), refresh(cookies), refresh(cookies)])
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200])
    const successors = new Set(answers.map((r) => cookiesOf(r).refresh_token))
    expect(successors.size).toBe(1)
    const [successor] = successors
    expect(successor).not.toBe(cookies.refresh_token)
    for (const answer of answers) expect(answer.json().user).toEqual(body.user)
    // One rotation happened, not three: the successor renews, and the session lives on.
    const familyId = cookies.refresh_token!.split('.')[0]
    const family = await app.mongo.db
      .collection<{ _id: string; generation: number }>('sessions')
      .findOne({ _id: familyId })
    expect(family?.generation).toBe(1)
    const next = await refresh({ ...cookies, refresh_token: successor! })
    expect(next.statusCode).toBe(200)
  })

  it('a spent token back within the grace window answers its successor, which still renews', async () => {
    const { cookies } = await loggedIn()
    const first = await refresh(cookies)
    const late = await refresh(cookies)
    expect(late.statusCode).toBe(200)
    expect(cookiesOf(late).refresh_token).toBe(cookiesOf(first).refresh_token)
    expect((await refresh({ ...cookies, ...cookiesOf(first) })).statusCode).toBe(200)
  })

  it('a token two renewals old is reuse even within the window', async () => {
    const { cookies } = await loggedIn()
    const first = await refresh(cookies)
    const second = await refresh({ ...cookies, ...cookiesOf(first) })
    expect(second.statusCode).toBe(200)
    // The window covers the token spent by the last renewal only.
    expect((await refresh(cookies)).statusCode).toBe(401)
    expect((await refresh({ ...cookies, ...cookiesOf(second) })).statusCode).toBe(401)
  })

  it('refuses without the X-XSRF-TOKEN header, with a wrong one, or from another origin', async () => {
    const { cookies } = await loggedIn()
    const noHeader = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies,
      headers: { origin: ORIGIN },
    })
    expect(noHeader.statusCode).toBe(403)
    expect(noHeader.json()).toMatchObject({ code: 'CSRF_REJECTED' })
    // A header matching a forged cookie is not enough: the token must be this session's HMAC.
    const forged = await refresh(
      { ...cookies, 'XSRF-TOKEN': 'forged' },
      { 'x-xsrf-token': 'forged' },
    )
    expect(forged.statusCode).toBe(403)
    const crossSite = await refresh(cookies, { origin: 'https://evil.example' })
    expect(crossSite.statusCode).toBe(403)
    expect(crossSite.json()).toMatchObject({ code: 'ORIGIN_REJECTED' })
    const noOrigin = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies,
      headers: { 'x-xsrf-token': cookies['XSRF-TOKEN']! },
    })
    expect(noOrigin.statusCode).toBe(403)
    // None of the refused attempts spent the token.
    expect((await refresh(cookies)).statusCode).toBe(200)
  })

  it('answers 401 without a cookie, and after the absolute lifetime', async () => {
    const none = await refresh({})
    expect(none.statusCode).toBe(401)
    const { cookies } = await loggedIn()
    const familyId = cookies.refresh_token!.split('.')[0]
    await app.mongo.db
      .collection<{ _id: string }>('sessions')
      .updateOne({ _id: familyId }, { $set: { expiresAt: new Date(Date.now() - 1000) } })
    expect((await refresh(cookies)).statusCode).toBe(401)
  })
})

describe('GET /logout', () => {
  it('ends the session and clears both cookies', async () => {
    const { email } = await verifiedAccount(app, 'logout')
    const cookies = cookiesOf(await login({ email, password: PASSWORD }))
    const response = await app.inject({ method: 'GET', url: '/logout', cookies })
    expect(response.statusCode).toBe(204)
    const cleared = setCookieHeaders(response)
    for (const name of ['refresh_token', 'XSRF-TOKEN']) {
      expect(cleared.find((h) => h.startsWith(`${name}=;`))).toMatch(/Expires=Thu, 01 Jan 1970/)
    }
    expect((await refresh(cookies)).statusCode).toBe(401)
  })

  it('is harmless without a session', async () => {
    expect((await app.inject({ method: 'GET', url: '/logout' })).statusCode).toBe(204)
  })

  it('voids the access token at once, here and on every other service, and a new sign-in works', async () => {
    const probe = await startEventProbe(Topics.authUsers)
    try {
      const { email } = await verifiedAccount(app, 'logout-token')
      const signedIn = await login({ email, password: PASSWORD })
      const { accessToken, user } = signedIn.json()
      const twoStep = (token: string) =>
        app.inject({
          method: 'GET',
          url: '/api/auth/two-step',
          headers: { authorization: `Bearer ${token}` },
        })
      expect((await twoStep(accessToken)).statusCode).toBe(200)

      const loggedOut = await app.inject({
        method: 'GET',
        url: '/logout',
        cookies: cookiesOf(signedIn),
      })
      expect(loggedOut.statusCode).toBe(204)

      // auth's own check reads the account's cut-off: refused from the logout's answer on.
      expect((await twoStep(accessToken)).statusCode).toBe(401)
      // Every other service (and the live connection) learns it from this event.
      const revoked = await probe.waitForEvent('user.tokens-revoked', user._id)
      expect(revoked.data).toMatchObject({ userId: user._id, reason: 'logged-out' })
      expect(Date.parse((revoked.data as { validAfter: string }).validAfter)).toBeGreaterThan(
        JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()).iat * 1000,
      )

      // Signing in again right away gives a token that works (signed once the cut-off passed).
      const again = await login({ email, password: PASSWORD })
      expect((await twoStep(again.json().accessToken)).statusCode).toBe(200)
    } finally {
      await probe.stop()
    }
  })
})

describe('access tokens verified by another service through service-kit', () => {
  let other: FastifyInstance

  beforeAll(async () => {
    other = await createServiceApp({ serviceName: 'other', logLevel: 'silent' })
    await other.register(authPlugin, {
      publicKey: keys.publicKey,
      issuer: 'marketplace-auth',
      audience: 'marketplace',
    })
    other.get('/me', { preHandler: other.authenticate }, async (request) => request.caller)
    await other.ready()
  })
  afterAll(async () => {
    await other?.close()
  })

  const me = (token: string) =>
    other.inject({ method: 'GET', url: '/me', headers: { authorization: `Bearer ${token}` } })

  it('accepts the token from login and refuses a tampered or unsigned one', async () => {
    const { email } = await verifiedAccount(app, 'token')
    const { accessToken, user } = (await login({ email, password: PASSWORD })).json()
    const accepted = await me(accessToken)
    expect(accepted.statusCode).toBe(200)
    expect(accepted.json()).toEqual({ userId: user._id, roles: ['2000'] })

    const [header, payload, signature] = accessToken.split('.')
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
    const promoted = Buffer.from(JSON.stringify({ ...claims, roles: ['2000', '2001'] })).toString(
      'base64url',
    )
    expect((await me(`${header}.${promoted}.${signature}`)).statusCode).toBe(401)

    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
    expect((await me(`${none}.${payload}.`)).statusCode).toBe(401)

    // Signed by someone else's key with the right claims: still refused.
    const { testKeyPair } = await import('@marketplace/service-kit/testing')
    const forged = signTestToken(testKeyPair().privateKey, claims)
    expect((await me(forged)).statusCode).toBe(401)
  })
})
