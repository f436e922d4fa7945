import { randomBytes } from 'node:crypto'
import { Kafka, logLevel } from 'kafkajs'
import { MongoClient, ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import {
  infraEnv,
  signTestToken,
  testKeyPair,
  testMongoUrl,
  waitFor,
} from '@marketplace/service-kit/testing'
import {
  freePort,
  siteClient,
  startService,
  waitUntilReady,
  type RunningService,
} from './processes'
import { startKafka } from './server-containers'

// A Kafka outage is not an API outage. The stack (jobs, notifications, the gateway) runs on a
// broker of its own, a container (testcontainers) started for this file, so stopping it for
// 30 s (`docker stop`), freezing it for 20 s (`docker pause`) or cutting it off the network
// for 20 s (`docker network disconnect`), disturbs no other test or developer. Meanwhile a client reads and writes through the gateway and every answer is the
// usual one, every service stays ready; once the broker is back every event written meanwhile
// is delivered once (notifications stored).
/**
 * Each case's bound: the fault (up to a minute with the container's stop and start) plus the
 * delivery afterwards (`clientThrough`'s own 180 s wait), so a slow delivery fails on that
 * wait, with its message, rather than on the test runner's default.
 */
const CASE_TIMEOUT_MS = 330_000

describe('a Kafka outage, through the gateway', () => {
  const infra = infraEnv()
  const keys = testKeyPair()
  let broker: Awaited<ReturnType<typeof startKafka>> | undefined
  let brokers: string
  const databases = {
    jobs: testMongoUrl('system_kafka_outage_jobs'),
    notifications: testMongoUrl('system_kafka_outage_notifications'),
  }
  const services: RunningService[] = []
  let call: ReturnType<typeof siteClient>['call']

  const tokenFor = (userId: string) => {
    const now = Math.floor(Date.now() / 1000)
    return signTestToken(keys.privateKey, {
      sub: userId,
      roles: ['2000'],
      iss: 'marketplace-auth',
      aud: 'marketplace',
      iat: now - 1,
      exp: now + 1800,
    })
  }

  beforeAll(async () => {
    broker = await startKafka()
    brokers = broker.brokers
    const common = {
      KAFKA_BROKERS: brokers,
      KAFKA_GROUP_PREFIX: `system-kafka-outage-${randomBytes(4).toString('hex')}-`,
      JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
      OUTBOX_POLL_MS: '500',
    }
    const jobs = await startService('jobs-kafka-outage', 'services/jobs', {
      ...common,
      PORT: String(await freePort()),
      MONGO_URL: databases.jobs,
    })
    services.push(jobs)
    const notifications = await startService(
      'notifications-kafka-outage',
      'services/notifications',
      {
        ...common,
        PORT: String(await freePort()),
        MONGO_URL: databases.notifications,
        SMTP_HOST: infra.smtpHost,
        SMTP_PORT: String(infra.smtpPort),
      },
    )
    services.push(notifications)
    await Promise.all([waitUntilReady(jobs), waitUntilReady(notifications)])
    const gateway = await startService('gateway-kafka-outage', 'services/gateway', {
      PORT: String(await freePort()),
      JOBS_URL: jobs.url,
      NOTIFICATIONS_URL: notifications.url,
    })
    services.push(gateway)
    ;({ call } = siteClient(gateway.url))
  })

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()))
    await broker?.remove()
    for (const url of Object.values(databases)) {
      const mongo = await new MongoClient(url).connect()
      await mongo.db().dropDatabase()
      await mongo.close()
    }
  })

  /** Users and workers as auth and people announce them; waits until jobs knows them. */
  async function announce(count: number) {
    const people = Array.from({ length: count }, (_, i) => ({
      userId: new ObjectId().toHexString(),
      firstName: `Outage${i}`,
    }))
    const kafka = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING })
    const producer = kafka.producer()
    await producer.connect()
    await producer.send({
      topic: Topics.authUsers,
      messages: people.map(({ userId, firstName }) => ({
        key: userId,
        value: JSON.stringify(
          newEvent('user.registered', {
            aggregateId: userId,
            actorId: userId,
            data: {
              userId,
              email: `${firstName}.${userId}@example.test`.toLowerCase(),
              firstName,
              lastName: 'Outage',
              phoneNumber: '(212) 555-0100',
              dateOfBirth: '1990-01-01',
              interest: 'Both',
              emailPreferences: false,
            },
          }),
        ),
      })),
    })
    await producer.send({
      topic: Topics.peopleUsers,
      messages: people.map(({ userId }) => ({
        key: userId,
        value: JSON.stringify(
          newEvent('worker-profile.updated', {
            aggregateId: userId,
            actorId: userId,
            data: { userId, isWorker: true, title: 'Helper', skills: ['Lifting'] },
          }),
        ),
      })),
    })
    await producer.disconnect()
    const jobsDb = await new MongoClient(databases.jobs).connect()
    try {
      await waitFor(
        async () =>
          (await jobsDb
            .db()
            .collection('users')
            .countDocuments({
              _id: { $in: people.map((p) => p.userId) as never[] },
              isWorker: true,
            })) === count,
        { timeoutMs: 120_000, intervalMs: 500, what: `${count} workers known to jobs` },
      )
    } finally {
      await jobsDb.close()
    }
    return people
  }

  /**
   * A client's usual reads and writes through the gateway, about one round a second, while
   * `fault` lasts `seconds`; then `heal`. Every answer must be the usual one and every
   * service ready throughout; afterwards every request's event, which waited in the jobs
   * outbox, reaches notifications exactly once (the owner's count is the requests sent).
   */
  async function clientThrough(
    fault: { apply(): Promise<void>; heal(): Promise<void>; seconds: number; what: string },
    people: number,
  ) {
    const [owner, ...workers] = await announce(people)
    const ownerToken = tokenFor(owner!.userId)
    const answers: Array<{ route: string; status: number }> = []
    const ask = async (
      route: string,
      method: string,
      path: string,
      token?: string,
      body?: object,
    ) => {
      const answer = await call(method, path, token, body)
      answers.push({ route, status: answer.status })
      return answer
    }

    const faultAt = Date.now()
    await fault.apply()
    const posts: string[] = []
    let requests = 0
    try {
      for (let round = 0; Date.now() - faultAt < fault.seconds * 1000; round += 1) {
        const post = await ask('POST /api/jobs', 'POST', '/api/jobs', ownerToken, {
          title: `Outage job ${round}`,
          where: 'Denver CO',
        })
        if (post.status === 201) posts.push(post.body._id)
        await ask('GET /api/jobs/{id}', 'GET', `/api/jobs/${posts.at(-1)}`, ownerToken)
        await ask('GET /api/jobs', 'GET', '/api/jobs?page=1', ownerToken)
        const worker = workers[round % workers.length]!
        const request = await ask(
          'POST /api/jobs/requests',
          'POST',
          '/api/jobs/requests',
          tokenFor(worker.userId),
          {
            postID: posts.at(-1),
          },
        )
        if (request.status === 201) requests += 1
        await ask('GET /api/notifications', 'GET', '/api/notifications?limit=5', ownerToken)
        for (const service of services) {
          answers.push({
            route: `${service.name} /readyz`,
            status: (await fetch(`${service.url}/readyz`)).status,
          })
        }
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
    } finally {
      await fault.heal()
    }

    const unusual = answers.filter(({ status }) => status !== 200 && status !== 201)
    console.log(
      `${fault.what} ${Math.round((Date.now() - faultAt) / 1000)} s: ${answers.length} calls, ` +
        `${unusual.length} unusual answers; ${posts.length} posts and ${requests} requests written`,
    )
    expect(unusual).toEqual([])
    expect(requests).toBeGreaterThan(0)

    // Every request's event waited in the jobs outbox and reaches notifications now.
    await waitFor(
      async () =>
        (await call('GET', '/api/notifications?limit=1', ownerToken)).body.pagination.total ===
        requests,
      { timeoutMs: 180_000, intervalMs: 1000, what: `${requests} notifications stored` },
    )
    // And once each: a publish retried after the broker came back must not store a second.
    await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(
      (await call('GET', '/api/notifications?limit=1', ownerToken)).body.pagination.total,
    ).toBe(requests)
  }

  it(
    'keeps every route answering and every service ready for 30 s without Kafka, then delivers every event',
    async () => {
      await clientThrough(
        {
          what: 'Kafka away (docker stop)',
          seconds: 30,
          apply: () => broker!.stop(),
          heal: () => broker!.start(),
        },
        31,
      )
    },
    CASE_TIMEOUT_MS,
  )

  // A frozen broker is worse than a stopped one for a client: a stopped broker refuses at
  // once, a frozen one accepts bytes and never answers, so every produce, fetch and heartbeat
  // waits for its timeout. The API must not wait with it.
  it(
    'keeps every route answering for 20 s while the broker is frozen (docker pause), then delivers every event once',
    async () => {
      await clientThrough(
        {
          what: 'Kafka frozen (docker pause)',
          seconds: 20,
          apply: () => broker!.pause(),
          heal: () => broker!.unpause(),
        },
        21,
      )
    },
    CASE_TIMEOUT_MS,
  )

  // A partition: the broker runs, but what the services send it goes nowhere, and its
  // answers to requests already sent never come back. Like a freeze for the clients, except
  // that the broker's own clock runs on, so their group sessions expire meanwhile and the
  // consumers must rejoin after the heal.
  it(
    'keeps every route answering for 20 s while the broker is cut off the network, then delivers every event once',
    async () => {
      await clientThrough(
        {
          what: 'Kafka cut off the network (docker network disconnect)',
          seconds: 20,
          apply: () => broker!.disconnect(),
          heal: () => broker!.reconnect(),
        },
        22,
      )
    },
    CASE_TIMEOUT_MS,
  )
})
