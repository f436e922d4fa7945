import { randomBytes } from 'node:crypto'
import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Kafka, logLevel, type SASLOptions } from 'kafkajs'
import { MongoClient, ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { applyKafkaAcls, newEvent } from '@marketplace/service-kit'
import { signTestToken, testKeyPair, testMongoUrl, waitFor } from '@marketplace/service-kit/testing'
import { freePort, startService, waitUntilReady, type RunningService } from './processes'
import { startKafka, type ServerContainer } from './server-containers'

const repoRoot = join(__dirname, '..', '..', '..')

// Every service authenticates to Kafka as its own SASL/SCRAM principal, and the
// broker's ACLs (scripts/kafka-acls.mjs) let it produce to its own topics only. A broker that
// authenticates and authorizes, as production's does, is started for this file as a container
// (src/server-containers.ts, on the image infra/images builds); the jobs service runs on it as
// `jobs`.
describe('one Kafka principal per service, with ACLs', () => {
  const keys = testKeyPair()
  const secret = () => randomBytes(18).toString('base64url')
  const passwords = {
    admin: secret(),
    jobs: secret(),
    auth: secret(),
    gateway: secret(),
    conversations: secret(),
    notifications: secret(),
  }
  let kafka: (ServerContainer & { brokers: string }) | undefined
  let brokers = ''
  const database = testMongoUrl('system_kafka_principals_jobs')
  const as = (username: keyof typeof passwords, password = passwords[username]) =>
    new Kafka({
      brokers: [brokers],
      sasl: { mechanism: 'scram-sha-512', username, password } satisfies SASLOptions,
      logLevel: logLevel.NOTHING,
      retry: { retries: 0 },
    })
  let jobs: RunningService | undefined

  beforeAll(async () => {
    kafka = await startKafka({ scram: passwords })
    brokers = kafka.brokers
    const admin = as('admin').admin()
    await admin.connect()
    try {
      await applyKafkaAcls(admin)
    } finally {
      await admin.disconnect()
    }
    // The broker applies new ACLs a moment after the controller has stored them (KRaft's
    // metadata log): on a loaded machine the first send could still be refused. Each
    // principal describes its own topic (its ACLs imply Describe) once they are in force.
    for (const [principal, topic] of [
      ['jobs', Topics.jobsPosts],
      ['auth', Topics.authUsers],
      ['gateway', 'analytics.events'],
      ['conversations', Topics.conversations],
      ['notifications', Topics.conversations],
    ] as const) {
      await waitFor(
        async () => {
          const probe = as(principal).admin()
          try {
            await probe.connect()
            await probe.fetchTopicMetadata({ topics: [topic] })
            return true
          } catch {
            return false
          } finally {
            await probe.disconnect().catch(() => undefined)
          }
        },
        { timeoutMs: 30_000, intervalMs: 250, what: `${principal}'s ACLs in force` },
      )
    }
    jobs = await startService('jobs-kafka-principals', 'services/jobs', {
      PORT: String(await freePort()),
      MONGO_URL: database,
      KAFKA_BROKERS: brokers,
      // A broker of its own: the groups keep their production names, which the ACLs name.
      KAFKA_GROUP_PREFIX: '',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'jobs',
      KAFKA_SASL_PASSWORD: passwords.jobs,
      JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
      OUTBOX_POLL_MS: '500',
    })
    await waitUntilReady(jobs)
  })

  afterAll(async () => {
    await jobs?.stop()
    await kafka?.remove()
    const mongo = await new MongoClient(database).connect()
    await mongo.db().dropDatabase()
    await mongo.close()
  })

  it('runs a service as its own principal: it reads others’ events and publishes its own', async () => {
    // auth announces a user, as auth (its own topic).
    const userId = new ObjectId().toHexString()
    const authProducer = as('auth').producer()
    await authProducer.connect()
    await authProducer.send({
      topic: Topics.authUsers,
      messages: [
        {
          key: userId,
          value: JSON.stringify(
            newEvent('user.registered', {
              aggregateId: userId,
              actorId: userId,
              data: {
                userId,
                email: `owner.${userId}@example.test`,
                firstName: 'Olga',
                lastName: 'Owner',
                phoneNumber: '(212) 555-0100',
                dateOfBirth: '1990-01-01',
                interest: 'Both',
                emailPreferences: false,
              },
            }),
          ),
        },
      ],
    })
    await authProducer.disconnect()

    // jobs read it (its group, its principal) and publishes post.created on its own topic.
    const now = Math.floor(Date.now() / 1000)
    const token = signTestToken(keys.privateKey, {
      sub: userId,
      roles: ['2000'],
      iss: 'marketplace-auth',
      aud: 'marketplace',
      iat: now - 1,
      exp: now + 900,
    })
    const post = await waitFor(
      async () => {
        const response = await fetch(`${jobs!.url}/api/jobs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Move a piano', where: 'Denver CO' }),
        })
        return response.status === 201 ? ((await response.json()) as { _id: string }) : undefined
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'jobs to know the owner and take a post' },
    )
    const seen: string[] = []
    const consumer = as('admin').consumer({ groupId: `probe-${randomBytes(4).toString('hex')}` })
    await consumer.connect()
    await consumer.subscribe({ topic: Topics.jobsPosts, fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ message }) => {
        const event = JSON.parse(message.value!.toString()) as { type: string; aggregateId: string }
        seen.push(`${event.type} ${event.aggregateId}`)
      },
    })
    try {
      await waitFor(async () => seen.includes(`post.created ${post._id}`), {
        timeoutMs: 60_000,
        what: 'post.created published by jobs',
      })
    } finally {
      await consumer.disconnect()
    }
  })

  it('refuses a service producing to another service’s topic, joining its groups, or a wrong password', async () => {
    const producer = as('jobs').producer()
    await producer.connect()
    try {
      await expect(
        producer.send({ topic: Topics.authUsers, messages: [{ value: '{"forged":true}' }] }),
      ).rejects.toMatchObject({ type: 'TOPIC_AUTHORIZATION_FAILED' })
      // Its own topics stay open to it.
      await producer.send({ topic: Topics.jobsPosts, messages: [{ value: '{"ok":true}' }] })
    } finally {
      await producer.disconnect()
    }
    // A group of its own joins; another service's group is refused (the broker answers
    // GROUP_AUTHORIZATION_FAILED to the coordinator lookup, which kafkajs reports as such or
    // as no coordinator found).
    const joins = async (groupId: string) => {
      const consumer = as('jobs').consumer({ groupId })
      await consumer.connect()
      try {
        await consumer.subscribe({ topic: Topics.authUsers })
        const outcome = new Promise<string>((resolve) => {
          consumer.on(consumer.events.GROUP_JOIN, () => resolve('joined'))
          consumer.on(consumer.events.CRASH, ({ payload }) => resolve(String(payload.error)))
        })
        await consumer.run({ eachMessage: async () => undefined }).catch(() => undefined)
        return await outcome
      } finally {
        await consumer.disconnect()
      }
    }
    expect(await joins(`jobs-probe-${randomBytes(4).toString('hex')}`)).toBe('joined')
    expect(await joins('auth-mail')).toMatch(/GROUP_AUTHORIZATION_FAILED|group coordinator/i)
    const impostor = as('jobs', 'not-the-password').producer()
    await expect(impostor.connect()).rejects.toMatchObject({
      name: 'KafkaJSSASLAuthenticationError',
    })
  })

  it('lets only the services that subscribe to a topic read it: the gateway reads nothing', async () => {
    // A private message on its topic, as the conversations service publishes it.
    const marker = `private-${randomBytes(6).toString('hex')}`
    const producer = as('conversations').producer()
    await producer.connect()
    try {
      await producer.send({
        topic: Topics.conversations,
        messages: [{ key: marker, value: JSON.stringify({ type: 'message.sent', text: marker }) }],
      })
    } finally {
      await producer.disconnect()
    }
    // Each outcome is written down for docs/security.md (.data/logs/system-tests/).
    const transcript = join(repoRoot, '.data', 'logs', 'system-tests', 'kafka-principals.txt')
    mkdirSync(dirname(transcript), { recursive: true })
    const record = (principal: string, topic: string, outcome: string) => {
      appendFileSync(
        transcript,
        `${new Date().toISOString()} ${principal} consumes ${topic}: ${outcome}\n`,
      )
      return outcome
    }
    /** What `principal` gets when it tries to consume `topic` from its start. */
    const consume = async (principal: keyof typeof passwords, topic: string) => {
      const consumer = as(principal).consumer({
        groupId: `${principal}-probe-${randomBytes(4).toString('hex')}`,
      })
      let settle: (outcome: string) => void = () => undefined
      const outcome = new Promise<string>((resolve) => (settle = resolve))
      const timer = setTimeout(() => settle('nothing within 20 s'), 20_000)
      try {
        await consumer.connect()
        consumer.on(consumer.events.CRASH, ({ payload }) => settle(String(payload.error)))
        await consumer.subscribe({ topic, fromBeginning: true })
        await consumer.run({
          eachMessage: async ({ message }) => {
            if (message.key?.toString() === marker) settle('read the message')
          },
        })
        return record(principal, topic, await outcome)
      } catch (error) {
        return record(principal, topic, String(error))
      } finally {
        clearTimeout(timer)
        await consumer.disconnect().catch(() => undefined)
      }
    }

    // notifications, which subscribes to it (it tells the other side), reads it: the message
    // is there to be read.
    expect(await consume('notifications', Topics.conversations)).toBe('read the message')
    // The internet-facing gateway cannot (it has no consumer group either), nor can auth,
    // which subscribes to people.users only.
    expect(await consume('gateway', Topics.conversations)).toMatch(
      /AUTHORIZATION_FAILED|not authorized|group coordinator/i,
    )
    expect(await consume('auth', Topics.conversations)).toMatch(
      /TOPIC_AUTHORIZATION_FAILED|not authorized/i,
    )
    expect(await consume('gateway', Topics.authUsers)).toMatch(
      /AUTHORIZATION_FAILED|not authorized|group coordinator/i,
    )
  })
})
