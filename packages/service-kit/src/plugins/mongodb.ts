import { AsyncLocalStorage } from 'node:async_hooks'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, Histogram, type Registry } from 'prom-client'
import {
  MongoClient,
  type Db,
  type CommandFailedEvent,
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type CreateIndexesOptions,
  type IndexSpecification,
} from 'mongodb'

export interface IndexDefinition {
  collection: string
  keys: IndexSpecification
  options?: CreateIndexesOptions & { name: string }
}

export interface MongoPluginOptions {
  url: string
  /** Every index the service's queries rely on; created (idempotently) before it listens. */
  indexes: IndexDefinition[]
  /** Answer each request with its command count in `x-mongodb-commands` (tests). */
  commandsHeader?: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    mongo: { client: MongoClient; db: Db }
  }
  interface FastifyRequest {
    /** The database commands this request sent so far (null before its handlers run). */
    mongodbCommands: CommandCount | null
  }
}

/** A running count of database commands, one per request (or per `countCommandsOf` call). */
export interface CommandCount {
  count: number
}

/** The header that carries a request's command count when `commandsHeader` is on. */
export const COMMANDS_HEADER = 'x-mongodb-commands'

/**
 * The count of the request (or the work) whose async context a command starts in. The
 * driver emits `commandStarted` in the caller's context, so every command a handler awaits,
 * however deep, lands on its request's count; work outside any request (consumers, the
 * outbox relay) has no count and is not counted here.
 */
const currentCount = new AsyncLocalStorage<CommandCount>()

/**
 * Runs `work` with a count of its own: what a request's budget is measured with, usable in
 * a unit test of a repository. The client must monitor commands (`connectMongo` with metrics,
 * or `monitorCommands=true` in its URL) and have `countRequestCommands` attached.
 */
export async function countCommandsOf<T>(
  work: () => Promise<T>,
): Promise<{ result: T; commands: number }> {
  const count: CommandCount = { count: 0 }
  const result = await currentCount.run(count, work)
  return { result, commands: count.count }
}

/**
 * Runs `work` outside any request's count. For what every request does alike whatever its
 * route: the session check's read of the user's revocation cut-off, cached for 250 ms and
 * shared by concurrent requests, lands on one request or another by timing alone, so counting
 * it made a route's fixed budget move between runs. A route's budget counts its own reads.
 */
export function outsideRequestCount<T>(work: () => T): T {
  return currentCount.exit(work)
}

/** Counts each command the client sends on the count of the context it starts in. */
export function countRequestCommands(client: MongoClient): void {
  client.on('commandStarted', () => {
    const count = currentCount.getStore()
    if (count) count.count += 1
  })
}

/**
 * How long an operation waits for the database server to be found. Every request path runs
 * on this client, so it bounds a request's wait in an outage: the error handler then answers
 * 503 (at the driver's default of 10 s, an outage answered 500 after 10 s). A
 * healthy server is known to the driver's monitor and selected at once.
 */
export const SERVER_SELECTION_TIMEOUT_MS = 1_000
/** How long start-up keeps trying to reach the database (a server restarting alongside). */
export const START_CONNECT_MS = 30_000
/**
 * How long a call waits for the database's answer on an open connection. A stopped server
 * refuses at once (server selection gives up within a second), but a frozen one (a paused
 * container, a stalled host, a network dropping packets) accepts and never answers: without a
 * bound, a request waited the whole freeze and then the gateway's 60 s. After this the driver
 * raises a network time-out, which the error handler answers 503 with Retry-After and a
 * consumer retries. Healthy calls take milliseconds; index builds, which can take minutes on a
 * large collection, run on a client of their own without it (`mongoPlugin`).
 */
export const SOCKET_TIMEOUT_MS = 10_000
/**
 * How long opening a connection (and each of the driver's health checks of the server) may
 * take. A frozen server completes the TCP handshake (its kernel still answers) and never
 * answers the driver's hello; at the driver's default of 30 s a request on a new connection
 * waited that long. After a health check times out the driver takes the server for down and
 * fails the next calls within the server-selection second, until a check succeeds again.
 */
export const CONNECT_TIMEOUT_MS = 10_000

export async function connectMongo(
  url: string,
  options: { metrics?: Registry; startConnectMs?: number; socketTimeoutMs?: number } = {},
): Promise<{ client: MongoClient; db: Db }> {
  const deadline = Date.now() + (options.startConnectMs ?? START_CONNECT_MS)
  for (;;) {
    const client = new MongoClient(url, {
      serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
      socketTimeoutMS: options.socketTimeoutMs ?? SOCKET_TIMEOUT_MS,
      connectTimeoutMS: CONNECT_TIMEOUT_MS,
      maxPoolSize: 20,
      monitorCommands: Boolean(options.metrics),
    })
    try {
      await client.connect()
      if (options.metrics) {
        countCommands(client, options.metrics)
        countRequestCommands(client)
      }
      // The database is the URL's path: database-per-service in one deployment.
      return { client, db: client.db() }
    } catch (error) {
      await client.close().catch(() => undefined)
      if (Date.now() >= deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  }
}

/** The server's answer to an option it does not implement (FerretDB v1 and TTL indexes). */
const NOT_IMPLEMENTED = 238

/**
 * Creates each index (idempotent). A TTL index the server refuses is created without its
 * expiry: the declaration stays what MongoDB runs, and the collection's owner sweeps
 * expired documents itself (the processed-events ledger does).
 */
export async function ensureIndexes(db: Db, indexes: IndexDefinition[]): Promise<void> {
  for (const index of indexes) {
    const collection = db.collection(index.collection)
    try {
      await collection.createIndex(index.keys, index.options)
    } catch (error) {
      const refusedExpiry =
        index.options?.expireAfterSeconds !== undefined &&
        (error as { code?: unknown }).code === NOT_IMPLEMENTED
      if (!refusedExpiry) throw error
      const plain = { ...index.options! }
      delete plain.expireAfterSeconds
      await collection.createIndex(index.keys, plain)
    }
  }
}

/** The commands that name a collection as their first value, as the wire protocol sends them. */
const COLLECTION_COMMANDS = new Set([
  'find',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'aggregate',
  'count',
  'distinct',
  'createIndexes',
])

/**
 * Every command the service sends, counted with its time by command and collection in
 * /metrics. It is how we know what a request costs the database (docs/benchmarks.md reads
 * it per notification): on the local FerretDB a query that is not by `_id` scans its table,
 * so the count of each kind is what decides latency under load.
 */
function countCommands(client: MongoClient, registry: Registry): void {
  const labelNames = ['command', 'collection'] as const
  const commands = new Counter({
    name: 'mongodb_commands_total',
    help: 'MongoDB commands sent, by command and collection',
    labelNames,
    registers: [registry],
  })
  const seconds = new Counter({
    name: 'mongodb_command_seconds_total',
    help: 'Time spent waiting for MongoDB commands, by command and collection',
    labelNames,
    registers: [registry],
  })
  // The collection is only in the started event; the finished one carries the same requestId.
  const collectionOf = new Map<number, string>()
  client.on('commandStarted', (event: CommandStartedEvent) => {
    if (!COLLECTION_COMMANDS.has(event.commandName)) return
    const name = event.command[event.commandName]
    if (typeof name === 'string') collectionOf.set(event.requestId, name)
  })
  const finished = (event: CommandSucceededEvent | CommandFailedEvent) => {
    const collection = collectionOf.get(event.requestId) ?? ''
    collectionOf.delete(event.requestId)
    const labels = { command: event.commandName, collection }
    commands.inc(labels)
    seconds.inc(labels, event.duration / 1000)
  }
  client.on('commandSucceeded', finished)
  client.on('commandFailed', finished)
}

/**
 * Gives each request its own command count from its first preHandler on (after the body is
 * read: the body's stream events run outside the request's async context), so the token
 * check, the handler and everything they await are counted. How many commands a route sends
 * is what its cost on the database comes down to, whatever the engine: the tests assert a
 * small budget per read route, and /metrics has its distribution per route
 * (`http_request_mongodb_commands`).
 */
function countCommandsPerRequest(app: FastifyInstance, header: boolean): void {
  const perRequest = new Histogram({
    name: 'http_request_mongodb_commands',
    help: 'MongoDB commands sent by one request, by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0, 1, 2, 3, 5, 8, 13, 21, 50],
    registers: [app.metrics],
  })
  app.decorateRequest('mongodbCommands', null)
  app.addHook('preHandler', (request, _reply, done) => {
    const count: CommandCount = { count: 0 }
    request.mongodbCommands = count
    currentCount.run(count, done)
  })
  if (header) {
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.mongodbCommands) {
        reply.header(COMMANDS_HEADER, String(request.mongodbCommands.count))
      }
      return payload
    })
  }
  app.addHook('onResponse', async (request) => {
    const route = request.routeOptions.url
    if (!request.mongodbCommands || !route) return
    perRequest.observe({ method: request.method, route }, request.mongodbCommands.count)
  })
}

export const mongoPlugin = fp(
  async (app: FastifyInstance, options: MongoPluginOptions) => {
    // Indexes first, on a client without the call time-out: building a new index on a large
    // collection takes longer than any request may wait.
    const builder = await connectMongo(options.url, { socketTimeoutMs: 0 })
    try {
      await ensureIndexes(builder.db, options.indexes)
    } finally {
      await builder.client.close()
    }
    const mongo = await connectMongo(options.url, { metrics: app.metrics })
    app.decorate('mongo', mongo)
    app.addReadinessCheck('mongodb', async () => {
      await mongo.db.command({ ping: 1 })
    })
    countCommandsPerRequest(app, options.commandsHeader === true)
    app.addHook('onClose', async () => {
      await mongo.client.close()
    })
  },
  { name: 'mongodb', dependencies: ['health', 'metrics'] },
)
