import { randomBytes, randomUUID } from 'node:crypto'
import { Kafka, Partitioners, logLevel, type Consumer, type Producer } from 'kafkajs'
import { MongoClient, type Db } from 'mongodb'
import { Topics, type DomainEvent } from '@marketplace/contracts/events'
import { infraEnv, testKeyPair, testMongoUrl, waitFor } from '@marketplace/service-kit/testing'
import { authOnlyEnv, freePort, startService, type RunningService } from './processes'
import { startKafka } from './server-containers'

// The first slice end to end, every part real and in its own process:
// browser-like HTTP -> gateway -> auth (FerretDB write + outbox) -> relay -> Kafka ->
// people (another process) -> its own database. The broker is this file's own, a container
// (testcontainers), so the test that stops it (`docker stop`) disturbs no other test.
describe('sign-up travels from the gateway to the people service', () => {
  const infra = infraEnv()
  const keys = testKeyPair()
  const authDbUrl = testMongoUrl('slice_auth')
  const peopleDbUrl = testMongoUrl('slice_people')
  const services: RunningService[] = []
  let gateway: RunningService
  let mongo: MongoClient
  let authDb: Db
  let peopleDb: Db
  let producer: Producer
  let watcher: Consumer
  const published = new Map<string, DomainEvent<'user.registered'>>()
  let broker: Awaited<ReturnType<typeof startKafka>> | undefined

  beforeAll(async () => {
    broker = await startKafka()
    const common = {
      KAFKA_BROKERS: broker.brokers,
      KAFKA_GROUP_PREFIX: `system-${randomBytes(4).toString('hex')}-`,
      JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
      OUTBOX_POLL_MS: '100',
    }
    const [authPort, peoplePort, gatewayPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ]
    const auth = await startService('auth', 'services/auth', {
      ...common,
      ...authOnlyEnv(keys),
      PORT: String(authPort),
      MONGO_URL: authDbUrl,
      // Hundreds of sign-ups from one address: the budgets are not under test here.
      RATE_LIMIT_MULTIPLIER: '1000',
    })
    const people = await startService('people', 'services/people', {
      ...common,
      PORT: String(peoplePort),
      MONGO_URL: peopleDbUrl,
    })
    gateway = await startService('gateway', 'services/gateway', {
      PORT: String(gatewayPort),
      AUTH_URL: auth.url,
      PEOPLE_URL: people.url,
    })
    services.push(gateway, people, auth)

    mongo = new MongoClient(`${infra.mongoUrlBase}/?${infra.mongoUrlOptions}`)
    await mongo.connect()
    authDb = mongo.db(new URL(authDbUrl).pathname.slice(1))
    peopleDb = mongo.db(new URL(peopleDbUrl).pathname.slice(1))
    const kafka = new Kafka({ brokers: [broker.brokers], logLevel: logLevel.NOTHING })
    producer = kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
    })
    await producer.connect()

    // Watches auth's topic from now on; joined before any test signs up.
    watcher = kafka.consumer({ groupId: `system-watcher-${randomUUID()}` })
    const joined = new Promise((resolve) => watcher.on(watcher.events.GROUP_JOIN, resolve))
    await watcher.connect()
    await watcher.subscribe({ topic: Topics.authUsers, fromBeginning: false })
    await watcher.run({
      eachMessage: async ({ message }) => {
        const event = JSON.parse(
          message.value?.toString() ?? '{}',
        ) as DomainEvent<'user.registered'>
        if (event.type === 'user.registered') published.set(event.data.userId, event)
      },
    })
    await joined
  })

  afterAll(async () => {
    await watcher?.disconnect()
    await producer?.disconnect()
    await Promise.all(services.map((service) => service.stop()))
    await authDb?.dropDatabase()
    await peopleDb?.dropDatabase()
    await mongo?.close()
    await broker?.remove()
  })

  let counter = 0
  const signupPayload = () => ({
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: `  Ada.${Date.now()}.${(counter += 1)}@Example.com `,
    phoneNumber: '+1 212 555 0100',
    password: 'Analytical1!',
    dateOfBirth: '1990-12-10',
    interest: 'Both',
    emailPreferences: true,
    termsAgreed: true,
  })
  const signUp = (body: object = signupPayload()) =>
    fetch(`${gateway.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const credentialOf = (email: string) => authDb.collection('credentials').findOne({ email })
  const profiles = () => peopleDb.collection<{ _id: string; firstName: string }>('profiles')

  it('a sign-up through the gateway creates exactly one profile in the people service', async () => {
    const payload = signupPayload()
    const response = await signUp(payload)
    expect(response.status).toBe(201)
    const email = payload.email.trim().toLowerCase()
    expect(await response.json()).toMatchObject({ email })

    const credential = await credentialOf(email)
    expect(credential?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    const userId = String(credential?._id)
    const profile = await waitFor(
      () =>
        profiles()
          .findOne({ _id: userId })
          .then((p) => p ?? undefined),
      {
        timeoutMs: 30_000,
        what: 'the profile',
      },
    )
    expect(profile).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      phoneNumber: '(212) 555-0100',
      interest: 'Both',
    })
    expect(await profiles().countDocuments({ _id: userId })).toBe(1)
    await waitFor(async () => (await credentialOf(email))?.outboxPending === undefined, {
      what: 'the outbox to empty',
    })
  })

  it('answers 409 "Email already registered" for an address in use, in any case', async () => {
    const payload = signupPayload()
    expect((await signUp(payload)).status).toBe(201)
    const again = await signUp({ ...payload, email: payload.email.toUpperCase() })
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ message: 'Email already registered', code: 'EMAIL_TAKEN' })
  })

  it('answers 400 with the rule that failed first', async () => {
    const response = await signUp({ ...signupPayload(), lastname: '-Lovelace' })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toBe('Invalid Last Name')
  })

  it('a second delivery of user.registered has no second effect', async () => {
    const payload = signupPayload()
    await signUp(payload)
    const email = payload.email.trim().toLowerCase()
    const userId = String((await credentialOf(email))?._id)
    await waitFor(
      () =>
        profiles()
          .findOne({ _id: userId })
          .then((p) => p ?? undefined),
      { what: 'the profile' },
    )
    // The user edits their profile; then Kafka delivers the old event again.
    await profiles().updateOne({ _id: userId }, { $set: { firstName: 'Augusta' } })

    const original = await publishedRegisteredEvent(userId)
    // Done watching: a consumer left running would crash and restart through the Kafka outage below.
    await watcher.disconnect()
    const markerId = randomUUID()
    const marker: DomainEvent<'user.registered'> = {
      ...original,
      id: randomUUID(),
      aggregateId: markerId,
      data: { ...original.data, userId: markerId, email: `${markerId}@example.com` },
    }
    // Same message key: the duplicate and the marker land on one partition, in this order.
    await producer.send({
      topic: Topics.authUsers,
      messages: [original, marker].map((event) => ({ key: userId, value: JSON.stringify(event) })),
    })
    await waitFor(
      () =>
        profiles()
          .findOne({ _id: markerId })
          .then((p) => p ?? undefined),
      { what: 'the marker profile' },
    )
    expect(await profiles().findOne({ _id: userId })).toMatchObject({ firstName: 'Augusta' })
    expect(await profiles().countDocuments({ _id: userId })).toBe(1)
  })

  it('with Kafka stopped, eight sign-ups made meanwhile (one a second) all reach people', async () => {
    await broker!.stop()
    const emails: string[] = []
    try {
      // Writes keep succeeding while the broker is away: the events wait in the outbox. A count,
      // not a clock: a slow machine makes the outage longer, never the test weaker.
      for (let signUps = 0; signUps < 8; signUps += 1) {
        const payload = signupPayload()
        const response = await signUp(payload)
        expect(response.status).toBe(201)
        emails.push(payload.email.trim().toLowerCase())
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
    } finally {
      await broker!.start()
    }
    expect(emails).toHaveLength(8)
    const ids = await Promise.all(
      emails.map(async (email) => String((await credentialOf(email))?._id)),
    )
    await waitFor(
      async () => (await profiles().countDocuments({ _id: { $in: ids } })) === ids.length,
      {
        timeoutMs: 120_000,
        intervalMs: 500,
        what: `all ${ids.length} profiles after Kafka came back`,
      },
    )
    for (const id of ids) expect(await profiles().countDocuments({ _id: id })).toBe(1)
  })

  /** The very envelope auth published for this user, as the watcher saw it on the topic. */
  async function publishedRegisteredEvent(userId: string): Promise<DomainEvent<'user.registered'>> {
    return waitFor(() => published.get(userId), { timeoutMs: 30_000, what: 'the published event' })
  }
})
