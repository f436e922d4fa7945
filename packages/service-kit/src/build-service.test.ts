import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { buildService, type ServiceConfig } from './build-service'
import { newEvent } from './events/new-event'
import { insertWithEvents } from './outbox/outbox-fields'
import { startEventProbe } from './testing/event-probe'
import { infraEnv, testMongoUrl } from './testing/infra-env'
import { testKeyPair } from './testing/keys'
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
        checks: { mongodb: 'ok', kafka: 'ok', catalog: 'ok' },
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
      expect(ready.json()).toEqual({ status: 'ready', checks: { kafka: 'ok' } })
      expect((await app.inject({ method: 'GET', url: '/hello' })).json()).toEqual({
        hello: 'world',
      })
    } finally {
      await app.close()
    }
    expect(groupStateAtClose).toBe('Empty')
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
