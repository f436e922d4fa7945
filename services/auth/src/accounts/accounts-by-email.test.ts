import { ObjectId, MongoClient, type Db } from 'mongodb'
import { ROLES } from '@marketplace/contracts/marketplace'
import { COMMANDS_HEADER } from '@marketplace/service-kit'
import { TEST_QUERY, testMongoUrl } from '@marketplace/service-kit/testing'
import type { FastifyInstance } from 'fastify'
import { signupPayload, startAuthTestApp, uniqueEmail, uniqueIp } from '../test/auth-test-app'
import { PASSWORD } from '../test/accounts'
import { CREDENTIALS, type CredentialDoc } from './credential-document'
import { createCredentialsRepository } from './credentials-repository'
import { passwordHasher } from './password-hasher'

// Login and every lookup by e-mail find the account by its unique `email_unique` index, on the
// real local server: one account per address under a race of sign-ups, the purge, and a
// login whose database commands do not grow with the number of accounts.

let client: MongoClient
let db: Db
let app: FastifyInstance
let passwordHash: string

/** A verified account stored directly, as sign-up and verification leave it. */
function storedAccount(email: string): CredentialDoc {
  return {
    _id: new ObjectId().toHexString(),
    email,
    passwordHash,
    firstName: 'Ada',
    lastName: 'Lovelace',
    phoneNumber: '(212) 555-0100',
    isWorker: false,
    roles: [ROLES.User],
    verified: true,
    createdAt: new Date(),
    outbox: [],
  }
}

const signUp = (email: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: signupPayload(email, { password: PASSWORD }),
    headers: { 'x-forwarded-for': uniqueIp() },
  })

const logIn = (email: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/direct-login',
    payload: { email, password: PASSWORD },
    headers: { 'x-forwarded-for': uniqueIp() },
  })

const accountsWith = (email: string) =>
  db
    .collection<CredentialDoc>(CREDENTIALS)
    .find({ email }, { ...TEST_QUERY, projection: { _id: 1 } })
    .toArray()

beforeAll(async () => {
  passwordHash = await passwordHasher.hash(PASSWORD)
  // One database for the app and the test's own look (each testMongoUrl names a new one).
  const url = `${testMongoUrl('auth_by_email')}&monitorCommands=true`
  client = await new MongoClient(url).connect()
  db = client.db()
  ;({ app } = await startAuthTestApp('auth_by_email', {
    MONGO_URL: url,
    MONGO_COMMANDS_HEADER: 'true',
  }))
})
afterAll(async () => {
  await app?.close()
  await db?.dropDatabase()
  await client?.close()
})

it('signs up one account per address, and login finds it', async () => {
  const email = uniqueEmail('new')
  expect((await signUp(email)).statusCode).toBe(201)
  expect(await accountsWith(email)).toHaveLength(1)
  // Not verified yet: login found the account (403), not "User not found" (404).
  expect((await logIn(email)).statusCode).toBe(403)
  expect((await logIn(uniqueEmail('unknown'))).statusCode).toBe(404)
  // Again with the same address: the unique index answers, 409.
  expect((await signUp(email)).statusCode).toBe(409)
})

it('of one address, five sign-ups at once make exactly one account', async () => {
  const email = uniqueEmail('race')
  const answers = await Promise.all(Array.from({ length: 5 }, () => signUp(email)))
  expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409, 409])
  expect(await accountsWith(email)).toHaveLength(1)
})

it('the purge of an account frees its address for a new sign-up', async () => {
  const email = uniqueEmail('purged')
  expect((await signUp(email)).statusCode).toBe(201)
  const repository = createCredentialsRepository(db)
  const account = await repository.findByEmail(email)
  await repository.remove(account!._id)
  expect((await logIn(email)).statusCode).toBe(404)
  expect((await signUp(email)).statusCode).toBe(201)
})

it('logs in with the same number of database commands at 1x and 10x the accounts', async () => {
  const credentials = db.collection<CredentialDoc>(CREDENTIALS)
  const store = (count: number) =>
    credentials.insertMany(
      Array.from({ length: count }, (_, i) => storedAccount(uniqueEmail(`n${i}`))),
    )
  const commandsOfLogin = async () => {
    const account = storedAccount(uniqueEmail('me'))
    await credentials.insertOne(account)
    const answer = await logIn(account.email)
    expect(answer.statusCode).toBe(200)
    return Number(answer.headers[COMMANDS_HEADER])
  }
  await store(30)
  const atSmall = await commandsOfLogin()
  await store(270)
  const atLarge = await commandsOfLogin()
  console.log(`login commands at 1x and 10x the accounts: ${atSmall}, ${atLarge}`)
  expect(atSmall).toBeGreaterThan(0)
  expect(atLarge).toBe(atSmall)
})
