import { randomBytes } from 'node:crypto'
import { Kafka, logLevel } from 'kafkajs'
import { MongoClient, ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { infraEnv, signTestToken, testKeyPair, waitFor } from '@marketplace/service-kit/testing'
import { freePort, startService, waitUntilReady, type RunningService } from './processes'
import { startDatabase } from './server-containers'

// A database outage answers 503 with Retry-After within 2 s (not a 500 after a 10 s wait),
// liveness stays green, and the service recovers by itself. jobs runs on a MongoDB-protocol
// server of its own, a container (testcontainers) started for this file, so stopping it for
// 20 s (`docker stop`), freezing it for 25 s (`docker pause`) or cutting it off the network
// for 25 s (`docker network disconnect`) disturbs no other test. A
// client writes and reads through the gateway the whole time; every post acknowledged (201) is
// there afterwards.
describe('a database outage, through the gateway', () => {
  const infra = infraEnv()
  const keys = testKeyPair()
  let database: Awaited<ReturnType<typeof startDatabase>> | undefined
  let mongoUrl: string
  const services: RunningService[] = []
  let jobs: RunningService
  let gatewayUrl: string

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
    database = await startDatabase()
    mongoUrl = database.url('system_database_outage')
    jobs = await startService('jobs-database-outage', 'services/jobs', {
      KAFKA_BROKERS: infra.kafkaBrokers,
      KAFKA_GROUP_PREFIX: `system-db-outage-${randomBytes(4).toString('hex')}-`,
      JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
      OUTBOX_POLL_MS: '500',
      PORT: String(await freePort()),
      MONGO_URL: mongoUrl,
    })
    services.push(jobs)
    await waitUntilReady(jobs)
    const gateway = await startService('gateway-database-outage', 'services/gateway', {
      PORT: String(await freePort()),
      JOBS_URL: jobs.url,
    })
    services.push(gateway)
    gatewayUrl = gateway.url
  })

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()))
    await database?.remove()
  })

  /** The owner as auth announces a user; waits until jobs knows them (posts need a name). */
  async function announceOwner(): Promise<string> {
    const userId = new ObjectId().toHexString()
    const kafka = new Kafka({ brokers: infra.kafkaBrokers.split(','), logLevel: logLevel.NOTHING })
    const producer = kafka.producer()
    await producer.connect()
    await producer.send({
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
                lastName: 'Outage',
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
    await producer.disconnect()
    const mongo = await new MongoClient(mongoUrl).connect()
    try {
      await waitFor(
        async () =>
          (await mongo
            .db()
            .collection('users')
            .countDocuments({ _id: userId as never })) === 1,
        { timeoutMs: 120_000, intervalMs: 500, what: 'the owner known to jobs' },
      )
    } finally {
      await mongo.close()
    }
    return userId
  }

  /**
   * A client's usual calls through the gateway while `fault` lasts `seconds`, then `heal`:
   * every answer during it is a success or 503 with Retry-After, none slower than `slowestMs`,
   * liveness stays green, the same processes answer 2xx after, and every post acknowledged
   * (201) is in the database.
   */
  async function clientThrough(fault: {
    what: string
    seconds: number
    slowestMs: number
    apply(): Promise<void>
    heal(): Promise<void>
  }) {
    const token = tokenFor(await announceOwner())
    const answers: Array<{
      phase: string
      route: string
      status: number
      ms: number
      retryAfter: string | null
    }> = []
    const acknowledged: string[] = []
    const ask = async (
      phase: string,
      route: string,
      method: string,
      path: string,
      body?: object,
    ) => {
      const started = performance.now()
      const response = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: {
          origin: gatewayUrl,
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      })
      const text = await response.text()
      answers.push({
        phase,
        route,
        status: response.status,
        ms: Math.round(performance.now() - started),
        retryAfter: response.headers.get('retry-after'),
      })
      if (route === 'POST /api/jobs' && response.status === 201) {
        acknowledged.push((JSON.parse(text) as { _id: string })._id)
      }
      return response.status
    }
    /** One round of a client's usual calls: write a post, read it back, read the owner's list. */
    const round = async (phase: string, index: number) => {
      await ask(phase, 'POST /api/jobs', 'POST', '/api/jobs', {
        title: `Outage job ${phase} ${index}`,
        where: 'Denver CO',
      })
      if (acknowledged.length > 0) {
        await ask(phase, 'GET /api/jobs/{id}', 'GET', `/api/jobs/${acknowledged.at(-1)}`)
      }
      await ask(phase, 'GET /api/jobs/my-jobs', 'GET', '/api/jobs/my-jobs')
    }

    for (let i = 0; i < 3; i += 1) await round('before', i)
    expect(answers.every((a) => a.status < 300)).toBe(true)

    const stoppedAt = Date.now()
    await fault.apply()
    let liveness = true
    try {
      for (let i = 0; Date.now() - stoppedAt < fault.seconds * 1000; i += 1) {
        await round('during', i)
        liveness &&= (await fetch(`${jobs.url}/healthz`)).status === 200
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
    } finally {
      await fault.heal()
    }
    // Back without a restart: the same processes answer 2xx again.
    await waitFor(
      async () =>
        (await ask('after', 'POST /api/jobs', 'POST', '/api/jobs', {
          title: 'Outage job after',
          where: 'Denver CO',
        })) === 201,
      { timeoutMs: 60_000, intervalMs: 1000, what: 'writes accepted again' },
    )
    for (let i = 0; i < 3; i += 1) await round('after-recovered', i)

    const during = answers.filter((a) => a.phase === 'during')
    const refused = during.filter((a) => a.status === 503)
    const unusual = during.filter((a) => !(a.status < 300 || (a.status === 503 && a.retryAfter)))
    const slow = during.filter((a) => a.ms > fault.slowestMs)
    console.log(
      `${fault.what} ${Math.round((Date.now() - stoppedAt) / 1000)} s: ${during.length} calls, ` +
        `${refused.length} answered 503, ${during.length - refused.length} answered 2xx, ` +
        `slowest ${Math.max(...during.map((a) => a.ms))} ms; ${acknowledged.length} posts acknowledged in all`,
    )
    expect(refused.length).toBeGreaterThan(0)
    expect(unusual).toEqual([])
    expect(slow).toEqual([])
    expect(liveness).toBe(true)
    expect(answers.filter((a) => a.phase === 'after-recovered' && a.status >= 300)).toEqual([])

    // Every acknowledged post is in the database.
    const mongo = await new MongoClient(mongoUrl).connect()
    try {
      const stored = await mongo
        .db()
        .collection('posts')
        .countDocuments({ _id: { $in: acknowledged as never[] } })
      expect(stored).toBe(acknowledged.length)
    } finally {
      await mongo.close()
    }
  }

  it('answers 503 with Retry-After within 2 s while the database is away, keeps liveness, loses no acknowledged write', async () => {
    await clientThrough({
      what: 'database away (docker stop)',
      seconds: 20,
      slowestMs: 2_000,
      apply: () => database!.stop(),
      heal: () => database!.start(),
    })
  }, 300_000)

  // A frozen database accepts connections and never answers: a request waited the whole
  // freeze. The driver's call and connection time-outs (10 s, packages/service-kit's
  // mongodb.ts) bound each wait; its health check then takes the server for down and the next
  // calls get their 503 within a second. A read that times out is tried once more by the driver
  // (retryable reads, which carry a replica set through a failover), so one call may wait two
  // time-outs and a server selection: 21 s at most (a CI run saw 18.8 s).
  it('answers 503 with Retry-After within the call time-out while the database is frozen (docker pause), loses no acknowledged write', async () => {
    await clientThrough({
      what: 'database frozen (docker pause)',
      seconds: 25,
      slowestMs: 21_000,
      apply: () => database!.pause(),
      heal: () => database!.unpause(),
    })
  }, 300_000)

  // A partition: the database runs but its container has left the network, so what jobs sends
  // goes nowhere (no refusal, no answer), as between two zones that lost their link. The same
  // bounds as a frozen server hold; after `docker network connect` the same processes serve.
  it('answers 503 with Retry-After within the call time-out while the database is cut off the network, loses no acknowledged write', async () => {
    await clientThrough({
      what: 'database cut off the network (docker network disconnect)',
      seconds: 25,
      slowestMs: 21_000,
      apply: () => database!.disconnect(),
      heal: () => database!.reconnect(),
    })
  }, 300_000)
})
