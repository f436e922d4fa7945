import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { newEvent } from '@marketplace/service-kit'
import { TEST_QUERY, waitFor } from '@marketplace/service-kit/testing'
import type { FastifyInstance } from 'fastify'
import { RESET_SUBJECT, cookiesOf, startAuthTestApp, uniqueIp } from '../test/auth-test-app'
import { waitForCode } from '../test/mailbox'
import { PASSWORD, verifiedAccount } from '../test/accounts'
import { publishEvent, startEventProbe } from '@marketplace/service-kit/testing'

// The people service's events, published on the real broker as it will publish them.
let app: FastifyInstance
const ORIGIN = 'http://localhost:80'

beforeAll(async () => {
  ;({ app } = await startAuthTestApp('auth_people_events'))
  await app.events.ready
})
afterAll(async () => {
  await app?.close()
})

async function login(email: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/direct-login',
    payload: { email, password: PASSWORD },
    headers: { 'x-forwarded-for': uniqueIp(), origin: ORIGIN },
  })
  return { status: response.statusCode, body: response.json(), cookies: cookiesOf(response) }
}

async function keepAccount(email: string, password = PASSWORD) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/keep-account',
    payload: { email, password },
    headers: { 'x-forwarded-for': uniqueIp(), origin: ORIGIN },
  })
  return { status: response.statusCode, body: response.json() }
}

const refresh = (cookies: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/refresh',
    cookies,
    headers: { origin: ORIGIN, 'x-xsrf-token': cookies['XSRF-TOKEN'] ?? '' },
  })

async function accountWithId(prefix: string) {
  const { email } = await verifiedAccount(app, prefix)
  const { body, cookies } = await login(email)
  return {
    email,
    userId: body.user._id as string,
    cookies,
    accessToken: body.accessToken as string,
  }
}

it('keeps names, phone and isWorker of the login answer in step with the people service', async () => {
  const { email, userId } = await accountWithId('projection')
  await publishEvent(
    Topics.peopleUsers,
    newEvent('user.profile-updated', {
      aggregateId: userId,
      actorId: userId,
      data: { userId, firstName: 'Augusta', lastName: 'King', phoneNumber: '(212) 555-0199' },
    }),
  )
  await publishEvent(
    Topics.peopleUsers,
    newEvent('worker-profile.updated', {
      aggregateId: userId,
      actorId: userId,
      data: { userId, isWorker: true },
    }),
  )
  const user = await waitFor(async () => {
    const { body } = await login(email)
    return body.user?.isWorker === true ? body.user : undefined
  })
  expect(user).toMatchObject({
    firstName: 'Augusta',
    lastName: 'King',
    phoneNumber: '(212) 555-0199',
    isWorker: true,
  })
})

it('during the deletion grace period: no login, no renewal, tokens revoked; cancelling restores login', async () => {
  const probe = await startEventProbe(Topics.authUsers)
  try {
    const { email, userId, cookies } = await accountWithId('grace')
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
    const refused = await waitFor(async () => {
      const attempt = await login(email)
      return attempt.status === 403 ? attempt : undefined
    })
    expect(refused.body).toEqual({
      message: Messages.auth.accountDeletionPending,
      code: 'ACCOUNT_DELETION_PENDING',
    })
    expect((await refresh(cookies)).statusCode).toBe(401)
    const revoked = await probe.waitForEvent('user.tokens-revoked', userId)
    expect(revoked.data).toMatchObject({ userId, reason: 'deletion-requested' })

    // "Keep my account": the password is the proof, as for a login.
    expect((await keepAccount(email, 'Wrong-pass1!')).status).toBe(401)
    const kept = await keepAccount(email)
    expect(kept.status).toBe(200)
    expect(kept.body.user._id).toBe(userId)
    expect(typeof kept.body.accessToken).toBe('string')
    const cancelled = await probe.waitForEvent('user.deletion-cancelled', userId)
    expect(cancelled.data).toEqual({ userId })
    const again = await keepAccount(email)
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('NO_DELETION_PENDING')
    await waitFor(async () => (await login(email)).status === 200)
  } finally {
    await probe.stop()
  }
})

it('refuses "Keep my account" once the grace period is over', async () => {
  const { email, userId } = await accountWithId('grace-over')
  const requestedAt = new Date(Date.now() - 31 * 86_400_000)
  await publishEvent(
    Topics.peopleUsers,
    newEvent('user.deletion-requested', {
      aggregateId: userId,
      actorId: userId,
      data: {
        userId,
        requestedAt: requestedAt.toISOString(),
        purgeAfter: new Date(Date.now() - 86_400_000).toISOString(),
      },
    }),
  )
  await waitFor(async () => (await login(email)).status === 403)
  const late = await keepAccount(email)
  expect(late.status).toBe(403)
  expect(late.body).toEqual({
    message: Messages.auth.deletionGraceOver,
    code: 'DELETION_GRACE_OVER',
  })
})

it('user.deleted removes every trace of the user from the auth database', async () => {
  const { email, userId } = await accountWithId('purge')
  await app.inject({
    method: 'POST',
    url: '/api/auth/forgot-password',
    payload: { email },
    headers: { 'x-forwarded-for': uniqueIp() },
  })
  await waitForCode(email, RESET_SUBJECT)
  await publishEvent(
    Topics.peopleUsers,
    newEvent('user.deleted', { aggregateId: userId, actorId: userId, data: { userId } }),
  )
  const db = app.mongo.db
  // Watched in the database: a login attempt would itself count against the address.
  await waitFor(
    async () => (await db.collection('credentials').countDocuments({ email }, TEST_QUERY)) === 0,
  )
  const rateLimitKeys = await db
    .collection<{ key: string }>('rate_limits')
    .countDocuments(
      { key: { $in: ['loginAccount', 'forgotAccount'].map((p) => `${p}:${email}`) } },
      TEST_QUERY,
    )
  expect(rateLimitKeys).toBe(0)
  for (const name of [
    'credentials',
    'sessions',
    'session_markers',
    'one_time_codes',
    'code_attempts',
  ]) {
    const left = await db
      .collection<{ _id: string }>(name)
      .countDocuments({ $or: [{ _id: userId }, { userId }] }, TEST_QUERY)
    expect({ name, left }).toEqual({ name, left: 0 })
  }
  expect((await login(email)).status).toBe(404)
})
