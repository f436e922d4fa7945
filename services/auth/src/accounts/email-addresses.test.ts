import { ObjectId, MongoClient, type Db } from 'mongodb'
import { ROLES } from '@marketplace/contracts/marketplace'
import { TEST_QUERY, testMongoUrl, waitFor } from '@marketplace/service-kit/testing'
import type { FastifyInstance } from 'fastify'
import { signupPayload, startAuthTestApp, uniqueEmail, uniqueIp } from '../test/auth-test-app'
import { PASSWORD } from '../test/accounts'
import {
  ADDRESS_BOOK_FILLED,
  CREDENTIALS,
  EMAIL_ADDRESSES,
  credentialIndexes,
  type CredentialDoc,
  type EmailAddressDoc,
} from './credential-document'
import { EmailTakenError, createCredentialsRepository } from './credentials-repository'
import { passwordHasher } from './password-hasher'

// Login and every lookup by e-mail read the address document by `_id` (issue 19 §2), on the
// real FerretDB: accounts stored before it existed, the race of two sign-ups, a sign-up that
// crashed between its two writes, and the purge.

let client: MongoClient
let url: string
let db: Db
let app: FastifyInstance
let oldAccount: { email: string; userId: string }
let passwordHash: string

/** An account as the service stored it before the address documents: no address of its own. */
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

const addressOf = (email: string) =>
  db.collection<EmailAddressDoc>(EMAIL_ADDRESSES).findOne({ _id: email }, TEST_QUERY)

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

beforeAll(async () => {
  passwordHash = await passwordHasher.hash(PASSWORD)
  url = `${testMongoUrl('auth_addresses')}&monitorCommands=true`
  client = await new MongoClient(url).connect()
  db = client.db()
  // Stored before the service that keeps addresses first started on this database.
  const account = storedAccount(uniqueEmail('old'))
  await db.collection<CredentialDoc>(CREDENTIALS).insertOne(account)
  oldAccount = { email: account.email, userId: account._id }
  ;({ app } = await startAuthTestApp('auth_addresses', { MONGO_URL: url }))
})
afterAll(async () => {
  await app?.close()
  await db?.dropDatabase()
  await client?.close()
})

describe('accounts stored before the address documents', () => {
  it('get their address in the background at start, and log in', async () => {
    await waitFor(async () => (await addressOf(oldAccount.email))?.userId === oldAccount.userId)
    expect(
      await db
        .collection(EMAIL_ADDRESSES)
        .findOne({ _id: ADDRESS_BOOK_FILLED } as never, TEST_QUERY),
    ).not.toBeNull()
    const response = await logIn(oldAccount.email)
    expect(response.statusCode).toBe(200)
    expect(response.json().user._id).toBe(oldAccount.userId)
  })

  it('are found by a lookup that misses before the fill ran, which then remembers the address', async () => {
    // A database of its own, never filled: the repository as a service before its fill.
    const other = client.db(`${db.databaseName}_unfilled`)
    try {
      const account = storedAccount(uniqueEmail('unfilled'))
      await other.collection<CredentialDoc>(CREDENTIALS).insertOne(account)
      const repository = createCredentialsRepository(other)
      expect((await repository.findByEmailWithSecret(account.email))?._id).toBe(account._id)
      expect(await repository.emailExists(account.email)).toBe(true)
      expect(await repository.emailExists(uniqueEmail('nobody'))).toBe(false)
      const remembered = await other
        .collection<EmailAddressDoc>(EMAIL_ADDRESSES)
        .findOne({ _id: account.email }, TEST_QUERY)
      expect(remembered?.userId).toBe(account._id)
      // Once filled, a miss is an answer: no account without its address document.
      const late = storedAccount(uniqueEmail('late'))
      expect(await repository.fillAddressBook()).toBe(1)
      await other.collection<CredentialDoc>(CREDENTIALS).insertOne(late)
      expect(await repository.findByEmail(account.email)).toMatchObject({ _id: account._id })
      expect(await repository.findByEmail(late.email)).toBeNull()
    } finally {
      await other.dropDatabase()
    }
  })

  it('keep their address against a sign-up with it before the fill reached them', async () => {
    const other = client.db(`${db.databaseName}_race_fill`)
    try {
      // The service's indexes, as it declares them (the unique address among them).
      for (const index of credentialIndexes) {
        await other.collection(index.collection).createIndex(index.keys, index.options)
      }
      const account = storedAccount(uniqueEmail('held'))
      await other.collection<CredentialDoc>(CREDENTIALS).insertOne(account)
      const repository = createCredentialsRepository(other)
      // The claim goes in (no address document yet); the account's unique index refuses.
      await expect(
        repository.insert({ ...storedAccount(account.email), _id: repository.newUserId() }, []),
      ).rejects.toBeInstanceOf(EmailTakenError)
      const address = await other
        .collection<EmailAddressDoc>(EMAIL_ADDRESSES)
        .findOne({ _id: account.email }, TEST_QUERY)
      expect(address?.userId).toBe(account._id)
      expect(await other.collection(CREDENTIALS).countDocuments({}, TEST_QUERY)).toBe(1)
    } finally {
      await other.dropDatabase()
    }
  })
})

describe('sign-up', () => {
  it('writes the address document with the account, and login reads it', async () => {
    const email = uniqueEmail('new')
    expect((await signUp(email)).statusCode).toBe(201)
    const account = await db
      .collection<CredentialDoc>(CREDENTIALS)
      .findOne({ email }, { ...TEST_QUERY, projection: { _id: 1 } })
    expect((await addressOf(email))?.userId).toBe(account?._id)
    // Not verified yet: login found the account (403), not "User not found" (404).
    expect((await logIn(email)).statusCode).toBe(403)
    expect((await logIn(uniqueEmail('unknown'))).statusCode).toBe(404)
  })

  it('of one address, five at once, makes exactly one account', async () => {
    const email = uniqueEmail('race')
    const answers = await Promise.all(Array.from({ length: 5 }, () => signUp(email)))
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409, 409])
    const accounts = await db
      .collection<CredentialDoc>(CREDENTIALS)
      .find({ email }, { ...TEST_QUERY, projection: { _id: 1 } })
      .toArray()
    expect(accounts).toHaveLength(1)
    expect((await addressOf(email))?.userId).toBe(accounts[0]!._id)
  })

  it('takes over the claim of a sign-up that crashed before storing its account, once it is stale', async () => {
    const email = uniqueEmail('crashed')
    const addresses = db.collection<EmailAddressDoc>(EMAIL_ADDRESSES)
    // A claim just made: a sign-up under way, whose account is about to be stored.
    await addresses.insertOne({
      _id: email,
      userId: new ObjectId().toHexString(),
      claimedAt: new Date(),
    })
    expect((await signUp(email)).statusCode).toBe(409)
    // The same claim two minutes on: that sign-up crashed.
    await addresses.updateOne(
      { _id: email },
      { $set: { claimedAt: new Date(Date.now() - 120_000) } },
      TEST_QUERY,
    )
    expect((await signUp(email)).statusCode).toBe(201)
    const account = await db
      .collection<CredentialDoc>(CREDENTIALS)
      .findOne({ email }, { ...TEST_QUERY, projection: { _id: 1 } })
    expect((await addressOf(email))?.userId).toBe(account?._id)
  })
})

it('the purge of an account removes its address, and the address can sign up again', async () => {
  const email = uniqueEmail('purged')
  expect((await signUp(email)).statusCode).toBe(201)
  const repository = createCredentialsRepository(db)
  const account = await repository.findByEmail(email)
  await repository.remove(account!._id)
  expect(await addressOf(email)).toBeNull()
  expect((await logIn(email)).statusCode).toBe(404)
  expect((await signUp(email)).statusCode).toBe(201)
})

it('an address document naming no account (a crashed sign-up) finds nothing', async () => {
  const email = uniqueEmail('dangling')
  await db
    .collection<EmailAddressDoc>(EMAIL_ADDRESSES)
    .insertOne({ _id: email, userId: new ObjectId().toHexString(), claimedAt: new Date(0) })
  expect((await logIn(email)).statusCode).toBe(404)
})
