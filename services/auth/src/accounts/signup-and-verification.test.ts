import { Messages } from '@marketplace/contracts/validation'
import type { FastifyInstance } from 'fastify'
import { Topics } from '@marketplace/contracts/events'
import { startEventProbe, TEST_QUERY } from '@marketplace/service-kit/testing'
import { mailText, mailsTo, waitForCode } from '../test/mailbox'
import {
  VERIFY_SUBJECT,
  signupPayload,
  startAuthTestApp,
  uniqueEmail,
  uniqueIp,
} from '../test/auth-test-app'

// Against the real FerretDB, Kafka and SMTP servers of infra/local.
let app: FastifyInstance

beforeAll(async () => {
  ;({ app } = await startAuthTestApp('auth_signup'))
  await app.events.ready
})
afterAll(async () => {
  await app?.close()
})

function post(url: string, payload: unknown, ip = uniqueIp()) {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { 'x-forwarded-for': ip },
  })
}

async function signUpAndReadCode(email: string) {
  const response = await post('/api/auth/signup', signupPayload(email))
  expect(response.statusCode).toBe(201)
  return waitForCode(email, VERIFY_SUBJECT)
}

describe('POST /api/auth/signup', () => {
  it.each([
    ['a first name with a digit', { firstname: 'Ad4' }, Messages.signup.invalidFirstName],
    ['a missing first name', { firstname: undefined }, Messages.signup.invalidFirstName],
    [
      'a last name over 24 characters',
      { lastname: 'L'.repeat(25) },
      Messages.signup.invalidLastName,
    ],
    ['a malformed email', { email: 'ada@' }, Messages.signup.invalidEmail],
    ['a 9-digit phone', { phoneNumber: '212555010' }, Messages.signup.invalidPhone],
    ['a password without a symbol', { password: 'Analytic1843' }, Messages.signup.invalidPassword],
    [
      'a password of 25 characters',
      { password: 'Aa1!'.padEnd(25, 'x') },
      Messages.signup.invalidPassword,
    ],
    [
      'someone under 18',
      { dateOfBirth: new Date().toISOString().slice(0, 10) },
      Messages.signup.underage,
    ],
    ['an unknown interest', { interest: 'Gardening' }, Messages.signup.selectInterest],
    ['terms not agreed', { termsAgreed: false }, Messages.signup.agreeToTerms],
    ['terms sent as a string', { termsAgreed: 'true' }, Messages.signup.agreeToTerms],
  ])('answers 400 for %s with the spec text', async (_case, change, message) => {
    const email = uniqueEmail('rule')
    const response = await post('/api/auth/signup', signupPayload(email, change))
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ message })
    // Nothing was stored: the same address can still sign up.
    expect((await post('/api/auth/signup', signupPayload(email))).statusCode).toBe(201)
  })

  it('reports the first invalid field in the form order', async () => {
    const response = await post(
      '/api/auth/signup',
      signupPayload('not-an-email', { lastname: '9', termsAgreed: false }),
    )
    expect(response.json().message).toBe(Messages.signup.invalidLastName)
  })

  it('trims and lower-cases the email, and answers 409 for the same address again', async () => {
    const email = uniqueEmail('case')
    const first = await post('/api/auth/signup', signupPayload(`  ${email.toUpperCase()} `))
    expect(first.statusCode).toBe(201)
    expect(first.json()).toEqual({ message: Messages.auth.accountCreated, email })
    const again = await post('/api/auth/signup', signupPayload(email))
    expect(again.statusCode).toBe(409)
    expect(again.json()).toEqual({ message: 'Email already registered', code: 'EMAIL_TAKEN' })
  })

  it('answers 429 with Retry-After once an address has signed up too often', async () => {
    const ip = uniqueIp()
    for (let i = 0; i < 10; i += 1) {
      const response = await post('/api/auth/signup', signupPayload('bad', { firstname: '1' }), ip)
      expect(response.statusCode).toBe(400)
    }
    const limited = await post('/api/auth/signup', signupPayload(uniqueEmail('late')), ip)
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited.json().message).toMatch(
      /^Too many attempts\. Please try again in \d+ minutes\.$/,
    )
  })
})

describe('e-mail verification', () => {
  it('mails a 6-digit code that verifies the account once', async () => {
    const email = uniqueEmail('verify')
    const code = await signUpAndReadCode(email)
    const [mail] = await mailsTo(email)
    expect((await mailText(mail!.ID)).Subject).toMatch(/verification code/i)

    const ok = await post('/api/auth/confirm-signup', { email, code })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toEqual({ message: Messages.auth.emailVerified })

    const again = await post('/api/auth/confirm-signup', { email, code })
    expect(again.statusCode).toBe(400)
    expect(again.json().message).toBe(Messages.auth.alreadyVerified)
  })

  it('counts wrong attempts and refuses the right code after five', async () => {
    const email = uniqueEmail('attempts')
    const code = await signUpAndReadCode(email)
    const wrong = code === '000000' ? '111111' : '000000'
    const answers: string[] = []
    for (let i = 0; i < 5; i += 1) {
      answers.push((await post('/api/auth/confirm-signup', { email, code: wrong })).json().message)
    }
    expect(answers).toEqual([
      Messages.auth.codeWrong(4),
      Messages.auth.codeWrong(3),
      Messages.auth.codeWrong(2),
      Messages.auth.codeWrong(1),
      Messages.auth.codeWrong(0),
    ])
    const late = await post('/api/auth/confirm-signup', { email, code })
    expect(late.statusCode).toBe(400)
    expect(late.json().message).toBe(Messages.auth.codeAttemptsExhausted)
  })

  it('judges at most five guesses of one code, even sent in parallel', async () => {
    const email = uniqueEmail('parallel-guesses')
    const code = await signUpAndReadCode(email)
    const wrong = Array.from({ length: 9 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    )
    const answers = await Promise.all(
      wrong.map((guess) => post('/api/auth/confirm-signup', { email, code: guess })),
    )
    const judged = answers.filter((a) => a.json().message.startsWith('Incorrect code'))
    expect(judged.length).toBeLessThanOrEqual(5)
    expect(answers.every((a) => a.statusCode === 400)).toBe(true)
    expect((await post('/api/auth/confirm-signup', { email, code })).json().message).toBe(
      Messages.auth.codeAttemptsExhausted,
    )
  })

  it('refuses a code after its 15 minutes', async () => {
    const email = uniqueEmail('expiry')
    const code = await signUpAndReadCode(email)
    // Age the stored code instead of waiting a quarter of an hour.
    const codes = app.mongo.db.collection('one_time_codes')
    const aged = await codes.updateOne(
      {
        purpose: 'verify-email',
        userId: (await app.mongo.db
          .collection<{ _id: string }>('credentials')
          .findOne({ email }, TEST_QUERY))!._id,
      },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
      TEST_QUERY,
    )
    expect(aged.modifiedCount).toBe(1)
    const response = await post('/api/auth/confirm-signup', { email, code })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toBe(Messages.auth.codeExpired)
  })

  it('resend mails a new code and voids the old one', async () => {
    const email = uniqueEmail('resend')
    const first = await signUpAndReadCode(email)
    const resent = await post('/api/auth/resend-confirmation', { email })
    expect(resent.statusCode).toBe(200)
    expect(resent.json()).toEqual({ message: Messages.verification.resendSucceeded })
    const second = await waitForCode(email, VERIFY_SUBJECT, 2)

    if (first !== second) {
      const old = await post('/api/auth/confirm-signup', { email, code: first })
      expect(old.statusCode).toBe(400)
    }
    expect((await post('/api/auth/confirm-signup', { email, code: second })).statusCode).toBe(200)
  })

  it('limits resends per account with 429 and Retry-After', async () => {
    const email = uniqueEmail('resend-limit')
    await signUpAndReadCode(email)
    const statuses: number[] = []
    let retryAfter: string | undefined
    for (let i = 0; i < 4; i += 1) {
      const response = await post('/api/auth/resend-confirmation', { email })
      statuses.push(response.statusCode)
      retryAfter ??= response.headers['retry-after'] as string | undefined
    }
    expect(statuses).toEqual([200, 200, 200, 429])
    expect(Number(retryAfter)).toBeGreaterThan(0)
  })

  it('answers clear 400s for missing fields, a malformed code and an unknown address', async () => {
    const missing = await post('/api/auth/confirm-signup', { email: uniqueEmail('x') })
    expect(missing.json()).toMatchObject({ message: Messages.auth.emailAndCodeRequired })
    const email = uniqueEmail('format')
    await signUpAndReadCode(email)
    const malformed = await post('/api/auth/confirm-signup', { email, code: '12ab56' })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().message).toBe(Messages.auth.codeFormat)
    const unknown = await post('/api/auth/confirm-signup', {
      email: uniqueEmail('nobody'),
      code: '123456',
    })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().message).toBe(Messages.auth.codeMissing)
  })

  it('publishes user.verified through the outbox once the code is accepted', async () => {
    const probe = await startEventProbe(Topics.authUsers)
    try {
      const email = uniqueEmail('event')
      const code = await signUpAndReadCode(email)
      await post('/api/auth/confirm-signup', { email, code })
      const account = await app.mongo.db
        .collection<{ _id: string; verified: boolean }>('credentials')
        .findOne({ email })
      expect(account?.verified).toBe(true)
      const event = await probe.waitForEvent('user.verified', account!._id)
      expect(event.data).toEqual({ userId: account!._id })
    } finally {
      await probe.stop()
    }
  })
})
