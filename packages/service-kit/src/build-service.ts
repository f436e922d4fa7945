import type { Static } from '@sinclair/typebox'
import type { Db } from 'mongodb'
import type { BaseConfig, KafkaConfigSchema, MongoConfigSchema } from './config'
import { createServiceApp, type CreateAppOptions, type ServiceApp } from './create-app'
import type { OutboxTarget } from './outbox/outbox-relay'
import { authPlugin, type AuthPluginOptions } from './plugins/auth'
import { PROCESSED_EVENTS_INDEXES } from './events/processed-events'
import { eventsPlugin, type ConsumerDefinition } from './plugins/events'
import { kafkaPlugin } from './plugins/kafka'
import { mongoPlugin, type IndexDefinition } from './plugins/mongodb'
import { IDEMPOTENCY_INDEXES, idempotencyPlugin } from './plugins/idempotency'
import { OUTBOX_PENDING_INDEX } from './outbox/outbox-fields'
import { outboxPlugin } from './plugins/outbox'
import { loadReadModels, type ReadModel } from './read-model'
import {
  TOKEN_REVOCATIONS_INDEXES,
  createTokenRevocations,
  type TokenRevocations,
} from './sessions/token-revocations'

/** The settings the kit reads to start a service; its config.ts composes the kit's schemas. */
export type ServiceConfig = BaseConfig &
  Static<typeof KafkaConfigSchema> &
  Partial<Static<typeof MongoConfigSchema>> & { TRUST_PROXY?: CreateAppOptions['trustProxy'] }

/** A service's own database: what it stores and which of its documents carry events. */
export interface DatabaseDeclaration {
  /** Every index the service's queries rely on; created (idempotently) before it listens. */
  indexes: IndexDefinition[]
  /** Collections whose documents carry an outbox (tombstones included). */
  outbox: string[]
}

/** What the kit hands a service's `compose`, before anything is connected. */
export interface ServicePlatform {
  /** For the service's own plugins (cookies, storage, a WebSocket server) and hooks. */
  app: ServiceApp
}

export interface DatabasePlatform {
  db: Db
  /** For repositories: wakes the outbox relay after a write that stored events. */
  notifyOutbox(target?: OutboxTarget): void
}

export interface TokenRevocationsPlatform {
  /** The user.tokens-revoked cut-offs the kit keeps and checks every access token against. */
  tokenRevocations: TokenRevocations
}

export type PlatformOf<D, R> = ServicePlatform &
  (D extends DatabaseDeclaration ? DatabasePlatform : unknown) &
  (R extends true ? TokenRevocationsPlatform : unknown)

/** What a service is made of, as its `compose` returns it. */
export interface ServiceParts<Exposed extends object> {
  /** The consumer groups and their handlers: events/subscriptions.ts, read models' groups. */
  subscriptions: ConsumerDefinition[]
  /** Held in memory and served from; loaded before the service is ready. */
  readModels?: ReadModel[]
  /** A service that decides itself which signed tokens still count (auth reads the account). */
  isTokenStillValid?: AuthPluginOptions['isTokenStillValid']
  /** Registers the routes, once authentication is in place. */
  routes(app: ServiceApp): Promise<void>
  /** Stops what `compose` started (timers, transports), once the consumers have stopped. */
  close?(): Promise<void> | void
  /** Parts that tests read from the app (`app.feed`, `app.live`). */
  expose?: Exposed
}

export interface ServiceDefinition<D, R, Exposed extends object> {
  /** Absent for a service without a database (media). */
  database?: D
  /** Refuse access tokens issued before the user's last revocation (needs the database). */
  tokenRevocations?: R
  /** Builds the service's repositories, use cases and handlers from what the kit gives. */
  compose(platform: PlatformOf<D, R>): ServiceParts<Exposed> | Promise<ServiceParts<Exposed>>
}

/**
 * Builds a service from what it declares, in the one order every service starts in:
 * the Fastify app (logs, errors, /healthz, /readyz, /metrics), the database and its indexes,
 * the broker client and the outbox relay (so repositories get its notifier when they are
 * built), the service's own parts, its consumer groups (all joining at once), access-token
 * checks, the read models loaded, then the routes. The result is what server.ts runs.
 */
export async function buildService<
  D extends DatabaseDeclaration | undefined = undefined,
  R extends boolean = false,
  Exposed extends object = object,
>(
  config: ServiceConfig &
    (D extends DatabaseDeclaration ? Static<typeof MongoConfigSchema> : unknown),
  definition: ServiceDefinition<D, R, Exposed>,
): Promise<ServiceApp & Exposed> {
  const database = definition.database as DatabaseDeclaration | undefined
  if (definition.tokenRevocations && !database) {
    throw new Error('token revocations are kept in the service database: declare one')
  }
  const app = await createServiceApp({
    serviceName: config.SERVICE_NAME,
    logLevel: config.LOG_LEVEL,
    trustProxy: config.TRUST_PROXY,
    metricsPort: config.METRICS_PORT,
    metricsHost: config.HOST,
  })
  if (database) {
    if (!config.MONGO_URL) throw new Error('a service with a database needs MONGO_URL')
    await app.register(mongoPlugin, {
      url: config.MONGO_URL,
      commandsHeader: config.MONGO_COMMANDS_HEADER,
      indexes: [
        ...database.indexes,
        // The relay's sweep of each outbox collection (tombstones too) reads by the flag:
        // declared here once, so no collection that carries events goes without it.
        ...database.outbox.map((collection) => ({
          collection,
          keys: OUTBOX_PENDING_INDEX.keys,
          options: { name: OUTBOX_PENDING_INDEX.name },
        })),
        // Every consumer with a ledger keeps it in the service's database.
        ...PROCESSED_EVENTS_INDEXES,
        ...(definition.tokenRevocations ? TOKEN_REVOCATIONS_INDEXES : []),
        // Keyed writes' first answers (plugins/idempotency), in every service with a database.
        ...IDEMPOTENCY_INDEXES,
      ],
    })
  }
  await app.register(kafkaPlugin, {
    brokers: config.KAFKA_BROKERS,
    clientId: config.SERVICE_NAME,
    auth: config,
  })
  if (database) {
    await app.register(outboxPlugin, {
      collections: database.outbox,
      pollMs: config.OUTBOX_POLL_MS,
    })
  }
  const tokenRevocations = definition.tokenRevocations
    ? createTokenRevocations(app.mongo.db)
    : undefined

  const platform = {
    app,
    ...(database && { db: app.mongo.db, notifyOutbox: app.outbox.notify }),
    ...(tokenRevocations && { tokenRevocations }),
  } as PlatformOf<D, R>
  const parts = await definition.compose(platform)
  const { close } = parts
  if (close) app.addHook('onClose', async () => close())

  await app.register(eventsPlugin, {
    consumers: parts.subscriptions,
    groupPrefix: config.KAFKA_GROUP_PREFIX,
    newGroupsSince: config.KAFKA_NEW_GROUPS_SINCE,
    fetchWaitMs: config.KAFKA_FETCH_WAIT_MS,
    instanceId: config.INSTANCE_ID,
    principal: config.SERVICE_NAME,
  })
  await app.register(authPlugin, {
    publicKey: config.JWT_PUBLIC_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    isTokenStillValid: tokenRevocations?.isTokenStillValid ?? parts.isTokenStillValid,
  })
  // Before the routes, so each write route answers a repeated Idempotency-Key with its first
  // answer (the gateway sends a keyed write again when its instance died under it).
  if (database) await app.register(idempotencyPlugin)
  await loadReadModels(app, parts.readModels ?? [])
  await parts.routes(app)
  return Object.assign(app, parts.expose ?? ({} as Exposed))
}
