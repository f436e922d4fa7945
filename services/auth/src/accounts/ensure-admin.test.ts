import { ROLES } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import type { FastifyInstance } from 'fastify'
import { PASSWORD, verifiedAccount } from '../test/accounts'
import { signupPayload, startAuthTestApp, uniqueEmail, uniqueIp } from '../test/auth-test-app'
import { createCredentialsRepository } from './credentials-repository'
import { ensureAdmin } from './ensure-admin'
import { passwordHasher } from './password-hasher'

// Against the real FerretDB, Kafka and SMTP servers of infra/local.
let app: FastifyInstance
const ADMIN_PASSWORD = 'Operator2024!'

beforeAll(async () => {
  ;({ app } = await startAuthTestApp('auth_ensure_admin'))
})
afterAll(async () => {
  await app?.close()
})

function ensureAdminFor(email: string) {
  return ensureAdmin(
    {
      credentials: createCredentialsRepository(app.mongo.db),
      hasher: passwordHasher,
      notifyOutbox: () => app.outbox.notify(),
    },
    { email, password: ADMIN_PASSWORD },
  )
}

async function rolesOf(email: string): Promise<string[] | undefined> {
  const account = await createCredentialsRepository(app.mongo.db).findByEmail(email)
  return account?.roles
}

function login(email: string, password: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/direct-login',
    payload: { email, password },
    headers: { 'x-forwarded-for': uniqueIp() },
  })
}

describe('the administrator named by ADMIN_EMAIL at start', () => {
  it('is created, verified, with the Admin role, when nobody has the address', async () => {
    const email = uniqueEmail('admin-new')
    expect(await ensureAdminFor(email)).toBe('created')
    const answer = await login(email, ADMIN_PASSWORD)
    expect(answer.statusCode).toBe(200)
    expect(answer.json().user.roles).toEqual([ROLES.User, ROLES.Admin])
  })

  it('two instances starting at once make one account, and neither fails', async () => {
    // Two replicas on a new database: both find no account and both insert it.
    const email = uniqueEmail('admin-twice')
    const outcomes = await Promise.all([ensureAdminFor(email), ensureAdminFor(email)])
    expect(outcomes.sort()).toEqual(['created', 'promoted'])
    expect(await rolesOf(email)).toEqual([ROLES.User, ROLES.Admin])
    expect((await login(email, ADMIN_PASSWORD)).statusCode).toBe(200)
  })

  it('an existing verified account is promoted and keeps its own password', async () => {
    const { email } = await verifiedAccount(app, 'admin-verified')
    expect(await ensureAdminFor(email)).toBe('promoted')
    expect(await rolesOf(email)).toEqual([ROLES.User, ROLES.Admin])
    expect((await login(email, PASSWORD)).json().user.roles).toEqual([ROLES.User, ROLES.Admin])
    // Idempotent across restarts.
    expect(await ensureAdminFor(email)).toBe('promoted')
    expect(await rolesOf(email)).toEqual([ROLES.User, ROLES.Admin])
  })

  it('an unverified account squatting the address is not promoted', async () => {
    // Somebody who does not own the mailbox signs up first, with a password of their own.
    const email = uniqueEmail('admin-squatted')
    const signup = await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupPayload(email, { password: PASSWORD }),
      headers: { 'x-forwarded-for': uniqueIp() },
    })
    expect(signup.statusCode).toBe(201)

    expect(await ensureAdminFor(email)).toBe('refused-unverified')
    expect(await rolesOf(email)).toEqual([ROLES.User])
    // Neither the squatter's password nor the configured one opens an administrator session.
    const squatter = await login(email, PASSWORD)
    expect(squatter.statusCode).toBe(403)
    expect(squatter.json().message).toBe(Messages.auth.emailNotVerified)
    expect((await login(email, ADMIN_PASSWORD)).statusCode).toBe(401)
  })
})
