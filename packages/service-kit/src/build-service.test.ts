import { createServer, type AddressInfo } from 'node:net'
import { Kafka, logLevel } from 'kafkajs'
import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { buildService, type ServiceConfig } from './build-service'
import { newEvent } from './events/new-event'
import { insertWithEvents } from './outbox/outbox-fields'
import { startEventProbe } from './testing/event-probe'
import { infraEnv, testMongoUrl } from './testing/infra-env'
import { testKeyPair } from './testing/keys'
import { waitFor } from './testing/wait-for'
import type { ConsumerDefinition } from './plugins/events'

// Real FerretDB and Kafka from infra/local: the start-up order every service now gets from
// the kit, observed from outside (what is published, when the read models load, /readyz).

function testConfig(label: string): ServiceConfig {
  return {
    SERVICE_NAME: 'service-kit-test',
    HOST: '127.0.0.1',
    PORT: 0,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_PUBLIC_KEY: testKeyPair().publicKey,
    JWT_ISSUER: 'marketplace-auth',
    JWT_AUDIENCE: 'marketplace',
    KAFKA_BROKERS: infraEnv().kafkaBrokers,
    // A minute: what a test sees published came from the relay's first pass, not a poll.
    OUTBOX_POLL_MS: 60_000,
    KAFKA_GROUP_PREFIX: `test-${label}-${new ObjectId().toHexString()}-`,
    KAFKA_SSL: false,
  }
}

/** One group that reads auth.users and does nothing with it. */
const idleGroup = (groupId: string): ConsumerDefinition => ({
  groupId,
  useLedger: false,
  handlers: { 'user.verified': async () => undefined },
})

/** Whether the promise has settled by the time the microtasks queued now have run. */
async function hasResolved(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setImmediate(() => resolve(false))),
  ])
}

describe('buildService', () => {
  it('publishes an event written while the service was composed, before Kafka was connected', async () => {
    const probe = await startEventProbe(Topics.authUsers)
    const userId = new ObjectId().toHexString()
    const event = newEvent('user.verified', {
      aggregateId: userId,
      actorId: userId,
      data: { userId },
    })
    const app = await buildService(
      { ...testConfig('compose-write'), MONGO_URL: testMongoUrl('service_kit_compose_write') },
      {
        database: { indexes: [], outbox: ['accounts'] },
        async compose({ db, notifyOutbox }) {
          await db
            .collection<{ _id: string }>('accounts')
            .insertOne(insertWithEvents({ _id: userId }, [event]))
          notifyOutbox({ collection: 'accounts', id: userId, outbox: [event] })
          return { subscriptions: [], async routes() {} }
        },
      },
    )
    try {
      await app.events.ready
      const published = await probe.waitForEvent('user.verified', userId, 60_000)
      expect(published.id).toBe(event.id)
    } finally {
      await probe.stop()
      await app.mongo.db.dropDatabase()
      await app.close()
    }
  })

  it('loads a read model once the consumer groups have joined, and /readyz names it', async () => {
    let joinedWhenLoaded: boolean | null = null
    let loaded = false
    const app = await buildService(
      { ...testConfig('read-model'), MONGO_URL: testMongoUrl('service_kit_read_model') },
      {
        database: { indexes: [], outbox: [] },
        compose({ app }) {
          return {
            subscriptions: [idleGroup('kit-read-model')],
            readModels: [
              {
                name: 'catalog',
                label: 'test catalog',
                async load() {
                  joinedWhenLoaded = await hasResolved(app.events.ready)
                  loaded = true
                },
                isLoaded: () => loaded,
              },
            ],
            async routes() {},
          }
        },
      },
    )
    try {
      expect(joinedWhenLoaded).toBe(true)
      const ready = await app.inject({ method: 'GET', url: '/readyz' })
      expect(ready.json()).toEqual({
        status: 'ready',
        checks: { mongodb: 'ok', 'consumer-groups': 'ok', catalog: 'ok' },
      })
    } finally {
      await app.mongo.db.dropDatabase()
      await app.close()
    }
  })

  it('runs a service without a database on Kafka alone, and closes its parts after its groups left', async () => {
    const config = testConfig('no-database')
    const groupId = `${config.KAFKA_GROUP_PREFIX}kit-no-database`
    let groupStateAtClose: string | null = null
    const app = await buildService(config, {
      compose({ app }) {
        return {
          subscriptions: [idleGroup('kit-no-database')],
          async routes(app) {
            app.get('/hello', async () => ({ hello: 'world' }))
          },
          async close() {
            const admin = app.kafka.client.admin()
            await admin.connect()
            const { groups } = await admin.describeGroups([groupId])
            groupStateAtClose = groups[0]?.state ?? null
            await admin.disconnect()
          },
        }
      },
    })
    try {
      await app.events.ready
      const ready = await app.inject({ method: 'GET', url: '/readyz' })
      expect(ready.json()).toEqual({ status: 'ready', checks: { 'consumer-groups': 'ok' } })
      expect((await app.inject({ method: 'GET', url: '/hello' })).json()).toEqual({
        hello: 'world',
      })
    } finally {
      await app.close()
    }
    expect(groupStateAtClose).toBe('Empty')
  })

  it('names per-instance groups from INSTANCE_ID, so a restart rejoins its group; shared groups stay shared', async () => {
    const config = { ...testConfig('instance-id'), INSTANCE_ID: 'kit-test-1' }
    const start = () =>
      buildService(config, {
        compose: () => ({
          subscriptions: [idleGroup('kit-shared'), { ...idleGroup('kit-live'), perInstance: true }],
          async routes() {},
        }),
      })
    const admin = new Kafka({
      brokers: infraEnv().kafkaBrokers.split(','),
      logLevel: logLevel.NOTHING,
    }).admin()
    const groupsOnTheBroker = async () =>
      (await admin.listGroups()).groups
        .map((group) => group.groupId)
        .filter((groupId) => groupId.startsWith(config.KAFKA_GROUP_PREFIX))
        .sort()
    await admin.connect()
    try {
      // Started, stopped and started again, as a restarted pod with the same name.
      for (let run = 0; run < 2; run += 1) {
        const app = await start()
        expect(app.events.instanceId).toBe('kit-test-1')
        await app.events.ready
        await app.close()
      }
      expect(await groupsOnTheBroker()).toEqual([
        `${config.KAFKA_GROUP_PREFIX}kit-live.kit-test-1`,
        `${config.KAFKA_GROUP_PREFIX}kit-shared`,
      ])
    } finally {
      await admin.disconnect()
    }
  })

  it('serves and stays ready with the broker away; /healthz and /metrics say where Kafka is', async () => {
    // A port nothing listens on: the broker of a Kafka outage, from the first instant.
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo
        server.close(() => resolve(port))
      })
    })
    const app = await buildService(
      {
        ...testConfig('broker-away'),
        KAFKA_BROKERS: `127.0.0.1:${closedPort}`,
        MONGO_URL: testMongoUrl('service_kit_broker_away'),
      },
      {
        database: { indexes: [], outbox: ['things'] },
        compose({ db, notifyOutbox }) {
          return {
            subscriptions: [idleGroup('kit-broker-away')],
            async routes(app) {
              app.post('/things', async (_request, reply) => {
                const id = new ObjectId().toHexString()
                const event = newEvent('user.verified', {
                  aggregateId: id,
                  actorId: id,
                  data: { userId: id },
                })
                await db
                  .collection<{ _id: string }>('things')
                  .insertOne(insertWithEvents({ _id: id }, [event]))
                notifyOutbox({ collection: 'things', id, outbox: [event] })
                return reply.code(201).send({ id })
              })
            },
          }
        },
      },
    )
    try {
      // Ready as soon as the start-up found the broker away: the database answers.
      await waitFor(
        async () => (await app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200,
        { timeoutMs: 90_000, what: '/readyz to answer 200 with the broker away' },
      )
      const ready = await app.inject({ method: 'GET', url: '/readyz' })
      expect(ready.json()).toEqual({
        status: 'ready',
        checks: { mongodb: 'ok', 'consumer-groups': 'ok' },
      })
      expect((await app.inject({ method: 'POST', url: '/things' })).statusCode).toBe(201)
      await waitFor(
        async () =>
          (await app.inject({ method: 'GET', url: '/healthz' })).json().details.kafka.broker !==
          'unknown',
        { timeoutMs: 30_000, what: 'the first broker check' },
      )
      const health = await app.inject({ method: 'GET', url: '/healthz' })
      expect(health.statusCode).toBe(200)
      expect(health.json()).toMatchObject({
        status: 'ok',
        details: { kafka: { broker: 'unreachable', consumerGroups: 'joining' } },
      })
      const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
      expect(metrics).toMatch(/^kafka_broker_reachable\{[^}]*\} 0$/m)
      expect(metrics).toMatch(/^kafka_consumer_groups_joined\{[^}]*\} 0$/m)
    } finally {
      await app.mongo.db.dropDatabase()
      await app.close()
    }
  })

  it('reports a reachable broker and joined groups on /healthz', async () => {
    const app = await buildService(testConfig('broker-here'), {
      compose: () => ({ subscriptions: [idleGroup('kit-broker-here')], async routes() {} }),
    })
    try {
      await app.events.ready
      await waitFor(
        async () =>
          (await app.inject({ method: 'GET', url: '/healthz' })).json().details?.kafka?.broker ===
          'reachable',
        { timeoutMs: 30_000, what: 'the broker check' },
      )
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({
        status: 'ok',
        details: { kafka: { broker: 'reachable', consumerGroups: 'joined' } },
      })
    } finally {
      await app.close()
    }
  })

  it('refuses token revocations without a database to keep them in', async () => {
    await expect(
      buildService(testConfig('revocations'), {
        tokenRevocations: true,
        compose: () => ({ subscriptions: [], async routes() {} }),
      }),
    ).rejects.toThrow('token revocations are kept in the service database')
  })
})
