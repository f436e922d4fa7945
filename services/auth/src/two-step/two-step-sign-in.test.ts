import { generate } from 'otplib'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, TEST_QUERY, waitFor } from '@marketplace/service-kit/testing'
import { Topics } from '@marketplace/contracts/events'
import type { FastifyInstance } from 'fastify'
import { PASSWORD, verifiedAccount } from '../test/accounts'
import { cookiesOf, startAuthTestApp, uniqueIp } from '../test/auth-test-app'
import { mailsTo, waitForCode } from '../test/mailbox'
import { SECOND_STEP_LOCKED_SUBJECT, SIGN_IN_SUBJECT } from '../mail/templates'
import { TwoStepMessages } from './two-step-messages'

// Against the real FerretDB, Kafka and SMTP servers of infra/local.
let app: FastifyInstance

beforeAll(async () => {
  ;({ app } = await startAuthTestApp('auth_two_step'))
  await app.events.ready
})
afterAll(async () => {
  await app?.close()
})

type Answer = Awaited<ReturnType<FastifyInstance['inject']>>

function post(url: string, payload: object, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'x-forwarded-for': uniqueIp(), ...headers },
  })
}

async function signedIn(prefix: string) {
  const { email } = await verifiedAccount(app, prefix)
  const login = await post('/api/auth/direct-login', { email, password: PASSWORD })
  expect(login.statusCode).toBe(200)
  const auth = { authorization: `Bearer ${login.json<{ accessToken: string }>().accessToken}` }
  return { email, auth, cookies: cookiesOf(login) }
}

/**
 * Turning a method on or off voids the access tokens issued before: the old one is refused,
 * and the session's refresh cookie gets a new one, as the web app does after a 401. `auth`
 * is updated in place.
 */
async function renewAfterChange(session: {
  auth: Record<string, string>
  cookies: Record<string, string>
}) {
  const stale = await app.inject({
    method: 'GET',
    url: '/api/auth/two-step',
    headers: session.auth,
  })
  expect(stale.statusCode).toBe(401)
  const renewed = await app.inject({
    method: 'POST',
    url: '/api/auth/refresh',
    cookies: session.cookies,
    headers: { origin: 'http://localhost:80', 'x-xsrf-token': session.cookies['XSRF-TOKEN'] ?? '' },
  })
  expect(renewed.statusCode).toBe(200)
  Object.assign(session.cookies, cookiesOf(renewed))
  session.auth.authorization = `Bearer ${renewed.json<{ accessToken: string }>().accessToken}`
}

async function turnOnEmail(auth: Record<string, string>) {
  const answer = await app.inject({
    method: 'PUT',
    url: '/api/auth/two-step/email',
    payload: { enabled: true, password: PASSWORD },
    headers: auth,
  })
  expect(answer.statusCode).toBe(200)
}

/** A login that stops at the second step: no token, no cookie, a challenge. */
async function challengeFor(email: string, persist = false) {
  const login = await post('/api/auth/direct-login', { email, password: PASSWORD, persist })
  expect(login.statusCode).toBe(202)
  expect(login.cookies).toHaveLength(0)
  const body = login.json<{ challengeId: string; methods: string[]; emailCodeSent: boolean }>()
  expect(body).not.toHaveProperty('accessToken')
  return body
}

const verify = (payload: object) => post('/api/auth/two-step/verify', payload)
const codeOf = (answer: Answer) => answer.json<{ code: string }>().code

describe('e-mail two-step sign-in', () => {
  it('turning it on asks for the password again', async () => {
    const session = await signedIn('2s-pass')
    const { auth } = session
    const put = (payload: object) =>
      app.inject({ method: 'PUT', url: '/api/auth/two-step/email', payload, headers: auth })
    const missing = await put({ enabled: true })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().message).toBe(TwoStepMessages.passwordRequired)
    const wrong = await put({ enabled: true, password: 'Wrong1234!' })
    expect(wrong.statusCode).toBe(400)
    expect(codeOf(wrong)).toBe('WRONG_PASSWORD')
    const unauthenticated = await app.inject({
      method: 'PUT',
      url: '/api/auth/two-step/email',
      payload: { enabled: true, password: PASSWORD },
    })
    expect(unauthenticated.statusCode).toBe(401)
    const status = await app.inject({ method: 'GET', url: '/api/auth/two-step', headers: auth })
    expect(status.json()).toEqual({ email: false, authenticator: false, recoveryCodesLeft: 0 })
    await turnOnEmail(auth)
    await renewAfterChange(session)
    const after = await app.inject({ method: 'GET', url: '/api/auth/two-step', headers: auth })
    expect(after.json()).toEqual({ email: true, authenticator: false, recoveryCodesLeft: 0 })
  })

  it('a mailed code finishes the login once, with "Keep me signed in"; wrong and reused codes are refused', async () => {
    const { email, auth } = await signedIn('2s-mail')
    await turnOnEmail(auth)
    const challenge = await challengeFor(email, true)
    expect(challenge.methods).toEqual(['email'])
    expect(challenge.emailCodeSent).toBe(true)
    const code = await waitForCode(email, SIGN_IN_SUBJECT)

    const wrongCode = code === '000000' ? '111111' : '000000'
    const wrong = await verify({
      challengeId: challenge.challengeId,
      method: 'email',
      code: wrongCode,
    })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().message).toBe(TwoStepMessages.codeWrong(4))
    expect(wrong.cookies).toHaveLength(0)

    const right = await verify({ challengeId: challenge.challengeId, method: 'email', code })
    expect(right.statusCode).toBe(200)
    expect(right.json<{ accessToken: string }>().accessToken).toEqual(expect.any(String))
    expect(cookiesOf(right)).toHaveProperty('refresh_token')
    const refreshHeader = ([] as string[])
      .concat(right.headers['set-cookie'] ?? [])
      .find((h) => h.startsWith('refresh_token='))
    expect(Number(refreshHeader?.match(/Max-Age=(\d+)/)?.[1])).toBeGreaterThan(29 * 24 * 3600)

    // Reused: the challenge is spent, and on a new challenge the code is gone too.
    const again = await verify({ challengeId: challenge.challengeId, method: 'email', code })
    expect(again.statusCode).toBe(400)
    expect(codeOf(again)).toBe('CHALLENGE_ENDED')
    const next = await challengeFor(email)
    await waitForCode(email, SIGN_IN_SUBJECT, 2)
    const reused = await verify({ challengeId: next.challengeId, method: 'email', code })
    expect(reused.statusCode).toBe(400)
    expect(reused.cookies).toHaveLength(0)
  })

  it('an expired code is refused', async () => {
    const { email, auth } = await signedIn('2s-expired')
    await turnOnEmail(auth)
    const challenge = await challengeFor(email)
    const code = await waitForCode(email, SIGN_IN_SUBJECT)
    await app.mongo.db
      .collection<{ _id: string }>('one_time_codes')
      .updateMany(
        { purpose: 'sign-in' } as object,
        { $set: { expiresAt: new Date(Date.now() - 1000) } },
        TEST_QUERY,
      )
    const answer = await verify({ challengeId: challenge.challengeId, method: 'email', code })
    expect(answer.statusCode).toBe(400)
    expect(codeOf(answer)).toBe('CODE_EXPIRED')
    expect(answer.cookies).toHaveLength(0)
  })

  it('an expired challenge is refused', async () => {
    const { email, auth } = await signedIn('2s-chexp')
    await turnOnEmail(auth)
    const challenge = await challengeFor(email)
    const code = await waitForCode(email, SIGN_IN_SUBJECT)
    const user = await app.mongo.db
      .collection<{ _id: string; email: string }>('credentials')
      .findOne({ email }, TEST_QUERY)
    await app.mongo.db
      .collection<{ _id: string; userId: string }>('sign_in_challenges')
      .updateMany(
        { userId: user!._id },
        { $set: { expiresAt: new Date(Date.now() - 1000) } },
        TEST_QUERY,
      )
    const answer = await verify({ challengeId: challenge.challengeId, method: 'email', code })
    expect(codeOf(answer)).toBe('CHALLENGE_ENDED')
  })

  it('five wrong tries end the challenge, and the right code no longer helps', async () => {
    const { email, auth } = await signedIn('2s-tries')
    await turnOnEmail(auth)
    const challenge = await challengeFor(email)
    const code = await waitForCode(email, SIGN_IN_SUBJECT)
    const wrongCode = code === '000000' ? '111111' : '000000'
    const messages: string[] = []
    for (let i = 0; i < 5; i += 1) {
      const answer = await verify({
        challengeId: challenge.challengeId,
        method: 'email',
        code: wrongCode,
      })
      expect(answer.statusCode).toBe(400)
      messages.push(answer.json().message)
    }
    expect(messages).toEqual([4, 3, 2, 1, 0].map((left) => TwoStepMessages.codeWrong(left)))
    const right = await verify({ challengeId: challenge.challengeId, method: 'email', code })
    expect(right.statusCode).toBe(400)
    expect(codeOf(right)).toBe('CHALLENGE_ENDED')
  })

  it('bad input is a clear 400 that spends no try', async () => {
    const cases = [
      [{ method: 'email', code: '123456' }, 'CHALLENGE_REQUIRED'],
      [{ challengeId: 'nope', method: 'email', code: '123456' }, 'CHALLENGE_ENDED'],
      [{ challengeId: 'nope', method: 'sms', code: '123456' }, 'METHOD_REQUIRED'],
      [{ challengeId: 'nope', method: 'email', code: '12ab' }, 'CODE_FORMAT'],
    ] as const
    for (const [payload, code] of cases) {
      const answer = await verify(payload)
      expect(answer.statusCode).toBe(400)
      expect(codeOf(answer)).toBe(code)
    }
    const empty = await app.inject({ method: 'POST', url: '/api/auth/two-step/verify' })
    expect(empty.statusCode).toBe(400)
  })
})

/** An account with the authenticator on: its secret and recovery codes. */
async function withAuthenticator(prefix: string) {
  const { email, auth } = await signedIn(prefix)
  const setup = await post('/api/auth/two-step/authenticator/setup', { password: PASSWORD }, auth)
  const { secret } = setup.json<{ secret: string }>()
  const confirm = await post(
    '/api/auth/two-step/authenticator/confirm',
    { code: await generate({ secret }) },
    auth,
  )
  expect(confirm.statusCode).toBe(200)
  return { email, secret, recoveryCodes: confirm.json<{ recoveryCodes: string[] }>().recoveryCodes }
}

describe('guessing the second step with a stolen password', () => {
  const settingsOf = async (email: string) => {
    const account = await app.mongo.db.collection('credentials').findOne({ email })
    return app.mongo.db
      .collection<{ _id: string; secondStepLockedUntil?: Date; failedSecondSteps?: number }>(
        'two_step_settings',
      )
      .findOne({ _id: String(account!._id) })
  }
  const wrongAuthenticatorCodes = async (email: string, secret: string, count: number) => {
    const right = await generate({ secret })
    const wrongCode = right === '000000' ? '111111' : '000000'
    let challenge = await challengeFor(email)
    for (let i = 0; i < count; i += 1) {
      if (i > 0 && i % 5 === 0) challenge = await challengeFor(email)
      const answer = await verify({
        challengeId: challenge.challengeId,
        method: 'authenticator',
        code: wrongCode,
      })
      expect({ status: answer.statusCode, code: codeOf(answer) }).toEqual({
        status: 400,
        code: 'CODE_WRONG',
      })
    }
  }

  it('locks the authenticator after five wrong codes in a row, tells the owner, and leaves the owner a way in', async () => {
    const { email, secret, recoveryCodes } = await withAuthenticator('2s-guess')
    await wrongAuthenticatorCodes(email, secret, 5)

    // The owner is told by mail.
    const lockMails = async () =>
      (await mailsTo(email)).filter((m) => m.Subject === SECOND_STEP_LOCKED_SUBJECT)
    await waitFor(async () => (await lockMails()).length > 0, { what: 'the lock mail' })
    expect(await lockMails()).toHaveLength(1)

    // Even the right authenticator code is refused during the lock: guessing has stopped.
    const locked = await challengeFor(email)
    const right = await verify({
      challengeId: locked.challengeId,
      method: 'authenticator',
      code: await generate({ secret }),
    })
    expect(right.statusCode).toBe(429)
    expect(codeOf(right)).toBe('SECOND_STEP_LOCKED')
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(14 * 60)
    expect(Number(right.headers['retry-after'])).toBeLessThanOrEqual(15 * 60)

    // The owner's recovery code still signs in, and a success starts the count again.
    const owner = await verify({
      challengeId: locked.challengeId,
      method: 'recovery',
      code: recoveryCodes[0],
    })
    expect(owner.statusCode).toBe(200)
    expect(await settingsOf(email)).not.toHaveProperty('secondStepLockedUntil')
    expect(await settingsOf(email)).not.toHaveProperty('failedSecondSteps')
  })

  it('each lock lasts twice the one before, until a sign-in succeeds', async () => {
    const { email, secret } = await withAuthenticator('2s-grow')
    await wrongAuthenticatorCodes(email, secret, 5)
    const first = (await settingsOf(email))!.secondStepLockedUntil!
    // The first lock has run out (moved into the past here rather than waited for).
    const db = app.mongo.db.collection<{ _id: string; secondStepLockedUntil?: Date }>(
      'two_step_settings',
    )
    const { _id } = (await settingsOf(email))!
    await db.updateOne({ _id }, { $set: { secondStepLockedUntil: new Date(Date.now() - 1000) } })
    // ...and so has the quarter hour of the per-account budget of tries.
    await app.mongo.db
      .collection('rate_limits')
      .deleteMany({ key: `twoStepAccount:${_id.toLowerCase()}` })
    const started = Date.now()
    await wrongAuthenticatorCodes(email, secret, 5)
    const second = (await settingsOf(email))!.secondStepLockedUntil!
    expect(first.getTime()).toBeGreaterThan(started - 60_000 + 14 * 60_000)
    expect(second.getTime() - started).toBeGreaterThan(29 * 60_000)
    expect(second.getTime() - started).toBeLessThanOrEqual(31 * 60_000)
  })
})

describe('authenticator app (TOTP) and recovery codes', () => {
  it('sets up with a QR code, signs in once per code, and each recovery code works once', async () => {
    const session = await signedIn('2s-totp')
    const { email, auth } = session
    const noPassword = await post('/api/auth/two-step/authenticator/setup', {}, auth)
    expect(noPassword.statusCode).toBe(400)
    const setup = await post('/api/auth/two-step/authenticator/setup', { password: PASSWORD }, auth)
    expect(setup.statusCode).toBe(200)
    const { secret, qrCode, otpauthUri } = setup.json<{
      secret: string
      qrCode: string
      otpauthUri: string
    }>()
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(Buffer.from(qrCode.split(',')[1]!, 'base64').toString()).toContain('<svg')
    expect(otpauthUri).toContain(`secret=${secret}`)

    const badFirst = await post(
      '/api/auth/two-step/authenticator/confirm',
      { code: '000000' },
      auth,
    )
    expect(badFirst.statusCode).toBe(400)
    const confirm = await post(
      '/api/auth/two-step/authenticator/confirm',
      { code: await generate({ secret }) },
      auth,
    )
    expect(confirm.statusCode).toBe(200)
    const { recoveryCodes } = confirm.json<{ recoveryCodes: string[] }>()
    expect(new Set(recoveryCodes).size).toBe(10)

    // The code used to confirm the setup cannot sign in: same time step (replay). Asked at
    // once, before anything that waits, so the step is still the same.
    const first = await challengeFor(email)
    expect(first.methods).toEqual(['authenticator'])
    expect(first.emailCodeSent).toBe(false)
    const replayed = await verify({
      challengeId: first.challengeId,
      method: 'authenticator',
      code: await generate({ secret }),
    })
    expect(replayed.statusCode).toBe(400)

    await renewAfterChange(session)
    // The secret never leaves the server again, nor is it stored in clear.
    const status = await app.inject({ method: 'GET', url: '/api/auth/two-step', headers: auth })
    expect(status.json()).toEqual({ email: false, authenticator: true, recoveryCodesLeft: 10 })
    const stored = JSON.stringify(
      await app.mongo.db.collection('two_step_settings').find().toArray(),
    )
    expect(stored).not.toContain(secret)
    expect(stored).not.toContain(recoveryCodes[0])

    // A code of the next step signs in, once.
    const nextCode = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })
    const signedInWithApp = await verify({
      challengeId: first.challengeId,
      method: 'authenticator',
      code: nextCode,
    })
    expect(signedInWithApp.statusCode).toBe(200)
    const second = await challengeFor(email)
    const again = await verify({
      challengeId: second.challengeId,
      method: 'authenticator',
      code: nextCode,
    })
    expect(again.statusCode).toBe(400)
    expect(codeOf(again)).toBe('CODE_WRONG')

    // A recovery code (typed in lower case, without the dash) works once.
    const typed = recoveryCodes[0]!.toLowerCase().replace('-', '')
    const recovered = await verify({
      challengeId: second.challengeId,
      method: 'recovery',
      code: typed,
    })
    expect(recovered.statusCode).toBe(200)
    const third = await challengeFor(email)
    const twice = await verify({
      challengeId: third.challengeId,
      method: 'recovery',
      code: recoveryCodes[0],
    })
    expect(twice.statusCode).toBe(400)
    expect(codeOf(twice)).toBe('CODE_WRONG')
    const left = await app.inject({ method: 'GET', url: '/api/auth/two-step', headers: auth })
    expect(left.json().recoveryCodesLeft).toBe(9)
    // Both methods on: the authenticator first; e-mail is mailed only when asked for.
    await turnOnEmail(auth)
    await renewAfterChange(session)
    const both = await challengeFor(email)
    expect(both.methods).toEqual(['authenticator', 'email'])
    expect(both.emailCodeSent).toBe(false)
    expect((await mailsTo(email)).filter((m) => m.Subject === SIGN_IN_SUBJECT)).toHaveLength(0)
    const send = await post('/api/auth/two-step/email-code', { challengeId: both.challengeId })
    expect(send.statusCode).toBe(200)
    const mailed = await waitForCode(email, SIGN_IN_SUBJECT)
    const byMail = await verify({ challengeId: both.challengeId, method: 'email', code: mailed })
    expect(byMail.statusCode).toBe(200)

    // Turning the app off asks for the password and removes its recovery codes.
    const off = await post(
      '/api/auth/two-step/authenticator/disable',
      { password: 'Wrong1234!' },
      auth,
    )
    expect(off.statusCode).toBe(400)
    const offRight = await post(
      '/api/auth/two-step/authenticator/disable',
      { password: PASSWORD },
      auth,
    )
    expect(offRight.json().status).toEqual({
      email: true,
      authenticator: false,
      recoveryCodesLeft: 0,
    })
    await renewAfterChange(session)
  })

  it('"Keep my account" with two-step on lifts the deletion only after the second step', async () => {
    const { email, auth } = await signedIn('2s-keep')
    await turnOnEmail(auth)
    const account = await app.mongo.db
      .collection<{ _id: string; email: string }>('credentials')
      .findOne({ email }, TEST_QUERY)
    const userId = account!._id
    const requestedAt = new Date()
    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deletion-requested', {
        aggregateId: userId,
        actorId: userId,
        data: {
          userId,
          requestedAt: requestedAt.toISOString(),
          purgeAfter: new Date(requestedAt.getTime() + 30 * 86_400_000).toISOString(),
        },
      }),
    )
    await waitFor(
      async () =>
        (await post('/api/auth/direct-login', { email, password: PASSWORD })).statusCode === 403,
      { what: 'the deletion request applied' },
    )

    // The password alone: a challenge, no session, the deletion still pending.
    const kept = await post('/api/auth/keep-account', { email, password: PASSWORD })
    expect(kept.statusCode).toBe(202)
    expect(kept.cookies).toHaveLength(0)
    const challenge = kept.json<{
      challengeId: string
      methods: string[]
      emailCodeSent: boolean
    }>()
    expect(challenge).toMatchObject({ methods: ['email'], emailCodeSent: true })
    expect((await post('/api/auth/direct-login', { email, password: PASSWORD })).statusCode).toBe(
      403,
    )

    // The mailed code: the deletion is lifted and the person is signed in.
    const code = await waitForCode(email, SIGN_IN_SUBJECT)
    const right = await verify({ challengeId: challenge.challengeId, method: 'email', code })
    expect(right.statusCode).toBe(200)
    expect(right.json<{ user: { _id: string } }>().user._id).toBe(userId)
    const lifted = await app.mongo.db
      .collection<{ _id: string; deletionRequestedAt?: Date | null }>('credentials')
      .findOne({ _id: userId }, TEST_QUERY)
    expect(lifted?.deletionRequestedAt ?? null).toBeNull()
    const again = await post('/api/auth/keep-account', { email, password: PASSWORD })
    expect(again.statusCode).toBe(409)
  })
})
