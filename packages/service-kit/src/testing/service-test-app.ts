import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { ObjectId, type Db, type MongoClient } from 'mongodb'
import { waitForConsumersCaughtUp } from './consumer-lag'
import { infraEnv, testMongoUrl } from './infra-env'
import { signTestToken, testKeyPair } from './keys'
import { COMMANDS_HEADER } from '../plugins/mongodb'
import { recordQueryShapes } from './query-shapes'

/** What the helper needs of a service app built by the service kit. */
export interface TestableApp {
  listen(options: { host: string; port: number }): Promise<string>
  close(): Promise<unknown>
  server: { address(): unknown }
  mongo: { db: Db; client: MongoClient }
  events: { ready: Promise<unknown> }
}

export interface HttpAnswer<T = unknown> {
  status: number
  body: T
  text: string
  /**
   * The database commands the request sent (the service's `x-mongodb-commands`, which test
   * apps turn on): what the read routes' command budgets assert.
   */
  commands: number | null
}

/**
 * When this test file started (jest gives every file its own module registry): every app the
 * file starts, replicas and later apps included, has its new consumer groups begin here
 * (KAFKA_NEW_GROUPS_SINCE). The file's own events all come after it; the broker's history of
 * every earlier test file does not, and no longer has to be read (and handled) before a test
 * can start: in a full run that history is tens of thousands of events.
 */
const FILE_STARTED_AT = Date.now()

/**
 * A service app as its server.ts builds it, on a random port, against the real FerretDB and
 * Kafka of infra/local, with its own database and consumer groups. `build` gets the
 * environment (Mongo, Kafka, a test JWT key) and reads its config from it. `startReplica`
 * builds a second process-like instance on the same database, to check what one replica
 * learns from another through events.
 */
export async function startServiceTestApp<App extends TestableApp>(
  name: string,
  build: (env: Record<string, string>) => Promise<App>,
) {
  const keys = testKeyPair()
  // monitorCommands: tests may count what the service asks the database.
  const mongoUrl = `${testMongoUrl(name)}&monitorCommands=true`
  const groupPrefix = `test-${name}-${randomBytes(4).toString('hex')}-`
  const apps: App[] = []
  let queryShapes: ReturnType<typeof recordQueryShapes> | undefined

  async function start(): Promise<{ app: App; baseUrl: string }> {
    const app = await build({
      MONGO_URL: mongoUrl,
      KAFKA_BROKERS: infraEnv().kafkaBrokers,
      KAFKA_GROUP_PREFIX: groupPrefix,
      KAFKA_NEW_GROUPS_SINCE: String(FILE_STARTED_AT),
      // A test's shutdown waits for each consumer's fetch: short polls keep it quick.
      KAFKA_FETCH_WAIT_MS: '1000',
      JWT_PUBLIC_KEY: keys.publicKey,
      MONGO_COMMANDS_HEADER: 'true',
      // TEST_LOG_LEVEL=info shows the services' logs when a test needs explaining.
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    })
    // Real HTTP rather than app.inject (the jest config does not compile light-my-request's
    // ESM-only dependency), which also exercises the server as deployed.
    await app.listen({ host: '127.0.0.1', port: 0 })
    await app.events.ready
    // Every instance's queries count for the check that each is served by an index
    // (query-shapes.ts).
    queryShapes ??= recordQueryShapes(app.mongo.db)
    queryShapes.attach(app.mongo.client)
    apps.push(app)
    return { app, baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` }
  }

  const primary = await start()

  /** An access token as auth issues it; `roles` default to a plain user's ["2000"]. */
  const tokenFor = (userId: string, roles: string[] = ['2000']) => {
    const now = Math.floor(Date.now() / 1000)
    return signTestToken(keys.privateKey, {
      sub: userId,
      roles,
      iss: 'marketplace-auth',
      aud: 'marketplace',
      iat: now - 1,
      exp: now + 900,
    })
  }

  /**
   * A client for one user (or a guest when userId is null) against one instance, with the
   * user's roles in its token (an administrator is ["2000", "2001"]).
   */
  function clientFor(userId: string | null, baseUrl = primary.baseUrl, roles?: string[]) {
    const headers = (extra: Record<string, string> = {}) => ({
      ...(userId ? { authorization: `Bearer ${tokenFor(userId, roles)}` } : {}),
      ...extra,
    })
    async function call<T>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T>> {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      const commands = response.headers.get(COMMANDS_HEADER)
      return {
        status: response.status,
        text,
        body: (text ? JSON.parse(text) : null) as T,
        commands: commands === null ? null : Number(commands),
      }
    }
    /* eslint-disable @typescript-eslint/no-explicit-any -- tests read bodies loosely; each
       assertion states the shape it expects */
    return {
      userId,
      get: <T = any>(path: string) => call<T>('GET', path),
      post: <T = any>(path: string, body: unknown) => call<T>('POST', path, body),
      put: <T = any>(path: string, body: unknown) => call<T>('PUT', path, body),
      patch: <T = any>(path: string, body: unknown) => call<T>('PATCH', path, body),
      delete: <T = any>(path: string) => call<T>('DELETE', path),
    }
    /* eslint-enable @typescript-eslint/no-explicit-any */
  }

  return {
    app: primary.app,
    baseUrl: primary.baseUrl,
    db: primary.app.mongo.db,
    newUserId: () => new ObjectId().toHexString(),
    clientFor,
    tokenFor,
    startReplica: start,
    groupPrefix,
    /** Resolves once this app's consumer groups have read the broker's history since the file started. */
    caughtUp: (timeoutMs?: number) => waitForConsumersCaughtUp(groupPrefix, timeoutMs),
    async stop() {
      // Close every instance before dropping: FerretDB must not see a drop during requests.
      for (const app of apps.slice(1)) await app.close()
      await queryShapes?.flush()
      await primary.app.mongo.db.dropDatabase()
      await primary.app.close()
    },
  }
}
