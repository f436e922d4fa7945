import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import type { FastifyInstance } from 'fastify'
import {
  RESET_SUBJECT,
  cookiesOf,
  signupPayload,
  startAuthTestApp,
  uniqueEmail,
  uniqueIp,
} from '../test/auth-test-app'
import { PASSWORD, verifiedAccount } from '../test/accounts'
import { startEventProbe } from '@marketplace/service-kit/testing'
import { mailsTo, waitForCode } from '../test/mailbox'

// Against the real FerretDB, Kafka and SMTP servers of infra/local.
let app: FastifyInstance
const ORIGIN = 'http://localhost:80'
const NEW_PASSWORD = 'Engine1842$'

beforeAll(async () => {
  ;({ app } = await startAuthTestApp('auth_password'))
  await app.events.ready
})
afterAll(async () => {
  await app?.close()
})

function post(
  url: string,
  payload: object,
  extra: { token?: string; cookies?: Record<string, string> } = {},
) {
  return app.inject({
    method: 'POST',
    url,
    payload,
    cookies: extra.cookies,
    headers: {
      'x-forwarded-for': uniqueIp(),
      origin: ORIGIN,
      ...(extra.token ? { authorization: `Bearer ${extra.token}` } : {}),
    },
  })
}

async function login(email: string, password: string, persist = false) {
  const response = await post('/api/auth/direct-login', { email, password, persist })
  return { response, body: response.json(), cookies: cookiesOf(response) }
}

const refresh = (cookies: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/refresh',
    cookies,
    headers: { origin: ORIGIN, 'x-xsrf-token': cookies['XSRF-TOKEN'] ?? '' },
  })

describe('forgot password and reset', () => {
  it('answers the same for an existing and an unknown address, and mails only the real one', async () => {
    const { email } = await verifiedAccount(app, 'forgot')
    const ghost = uniqueEmail('ghost')
    const real = await post('/api/auth/forgot-password', { email })
    const unknown = await post('/api/auth/forgot-password', { email: ghost })
    expect(real.statusCode).toBe(200)
    expect(unknown.statusCode).toBe(200)
    expect(real.json()).toEqual(unknown.json())
    expect(real.json()).toEqual({ message: Messages.auth.resetCodeSent })
    await waitForCode(email, RESET_SUBJECT)
    expect(await mailsTo(ghost)).toHaveLength(0)
  })

  it('refuses a missing or malformed address with a clear 400', async () => {
    expect((await post('/api/auth/forgot-password', {})).json().message).toBe(
      Messages.auth.emailRequired,
    )
    const bad = await post('/api/auth/forgot-password', { email: 'nope@' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe(Messages.signup.invalidEmail)
  })

  it('resets with the code once, ends every session and the old password', async () => {
    const { email } = await verifiedAccount(app, 'reset')
    const before = await login(email, PASSWORD)
    await post('/api/auth/forgot-password', { email })
    const code = await waitForCode(email, RESET_SUBJECT)

    // A new password that breaks the rules is refused without spending the code.
    const weak = await post('/api/auth/confirm-password-reset', {
      email,
      code,
      newPassword: 'short',
    })
    expect(weak.statusCode).toBe(400)
    expect(weak.json().message).toBe(Messages.auth.passwordRules)

    const done = await post('/api/auth/confirm-password-reset', {
      email,
      code,
      newPassword: NEW_PASSWORD,
    })
    expect(done.statusCode).toBe(200)
    expect(done.json()).toEqual({ message: 'Password changed successfully' })

    const reused = await post('/api/auth/confirm-password-reset', {
      email,
      code,
      newPassword: 'Other1234!',
    })
    expect(reused.statusCode).toBe(400)
    expect(reused.json().message).toBe(Messages.auth.codeMissing)

    expect((await login(email, PASSWORD)).response.statusCode).toBe(401)
    expect((await login(email, NEW_PASSWORD)).response.statusCode).toBe(200)
    // The session opened before the reset is over, and so is its access token.
    expect((await refresh(before.cookies)).statusCode).toBe(401)
    const stale = await post(
      '/api/auth/change-password',
      { oldPassword: NEW_PASSWORD, newPassword: 'Another1234!' },
      { token: before.body.accessToken },
    )
    expect(stale.statusCode).toBe(401)
    expect(stale.json().code).toBe('TOKEN_REVOKED')
  })

  it('counts wrong reset codes like verification codes', async () => {
    const { email } = await verifiedAccount(app, 'reset-wrong')
    await post('/api/auth/forgot-password', { email })
    const code = await waitForCode(email, RESET_SUBJECT)
    const wrong = code === '999999' ? '888888' : '999999'
    const response = await post('/api/auth/confirm-password-reset', {
      email,
      code: wrong,
      newPassword: NEW_PASSWORD,
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toBe(Messages.auth.codeWrong(4))
  })

  it('verifies an unverified address, since the code proves the mailbox', async () => {
    const email = uniqueEmail('reset-unverified')
    await post('/api/auth/signup', signupPayload(email))
    await post('/api/auth/forgot-password', { email })
    const code = await waitForCode(email, RESET_SUBJECT)
    await post('/api/auth/confirm-password-reset', { email, code, newPassword: NEW_PASSWORD })
    expect((await login(email, NEW_PASSWORD)).response.statusCode).toBe(200)
  })

  it('limits reset mails per account with 429 and Retry-After', async () => {
    const email = uniqueEmail('forgot-limit')
    const statuses: number[] = []
    let retryAfter: unknown
    for (let i = 0; i < 4; i += 1) {
      const response = await post('/api/auth/forgot-password', { email })
      statuses.push(response.statusCode)
      retryAfter ??= response.headers['retry-after']
    }
    expect(statuses).toEqual([200, 200, 200, 429])
    expect(Number(retryAfter)).toBeGreaterThan(0)
  })
})

describe('POST /api/auth/change-password', () => {
  it('needs an access token', async () => {
    const response = await post('/api/auth/change-password', {
      oldPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    })
    expect(response.statusCode).toBe(401)
  })

  it('answers clear 400s for missing fields, a wrong current password and a weak or unchanged new one', async () => {
    const { email } = await verifiedAccount(app, 'change-rules')
    const { body } = await login(email, PASSWORD)
    const token = body.accessToken
    const cases: Array<[object, string]> = [
      [{ oldPassword: PASSWORD }, Messages.auth.changeFieldsRequired],
      [
        { oldPassword: 'Wrong1234!', newPassword: NEW_PASSWORD },
        Messages.auth.wrongCurrentPassword,
      ],
      [{ oldPassword: PASSWORD, newPassword: 'alllowercase1!' }, Messages.auth.passwordRules],
      [{ oldPassword: PASSWORD, newPassword: PASSWORD }, Messages.auth.samePassword],
    ]
    for (const [payload, message] of cases) {
      const response = await post('/api/auth/change-password', payload, { token })
      expect({ status: response.statusCode, message: response.json().message }).toEqual({
        status: 400,
        message,
      })
    }
  })

  it('ends every other session and old token, and keeps the caller signed in', async () => {
    const probe = await startEventProbe(Topics.authUsers)
    try {
      const { email } = await verifiedAccount(app, 'change')
      const elsewhere = await login(email, PASSWORD)
      const here = await login(email, PASSWORD, true)
      const response = await post(
        '/api/auth/change-password',
        { oldPassword: PASSWORD, newPassword: NEW_PASSWORD },
        { token: here.body.accessToken, cookies: here.cookies },
      )
      expect(response.statusCode).toBe(200)
      const answer = response.json()
      expect(answer).toMatchObject({ message: 'Password changed successfully', roles: ['2000'] })
      const fresh = cookiesOf(response)
      // The caller's new session keeps "Keep me signed in".
      const refreshHeader = ([] as string[])
        .concat(response.headers['set-cookie'] as string[])
        .find((h) => h.startsWith('refresh_token='))
      expect(refreshHeader).toMatch(/Max-Age=\d+/)

      expect((await refresh(elsewhere.cookies)).statusCode).toBe(401)
      expect((await refresh(here.cookies)).statusCode).toBe(401)
      expect((await refresh({ ...here.cookies, ...fresh })).statusCode).toBe(200)

      const oldToken = await post(
        '/api/auth/change-password',
        { oldPassword: NEW_PASSWORD, newPassword: 'Third1234!' },
        { token: elsewhere.body.accessToken },
      )
      expect(oldToken.statusCode).toBe(401)
      const newToken = await post(
        '/api/auth/change-password',
        { oldPassword: NEW_PASSWORD, newPassword: NEW_PASSWORD },
        { token: answer.accessToken },
      )
      // Accepted as a caller (the 400 is about the unchanged password, not the token).
      expect(newToken.statusCode).toBe(400)

      const revoked = await probe.waitForEvent('user.tokens-revoked', answer.user._id)
      expect(revoked.data).toMatchObject({ userId: answer.user._id, reason: 'password-changed' })
    } finally {
      await probe.stop()
    }
  })
})
