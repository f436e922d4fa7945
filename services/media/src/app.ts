import { authPlugin, createServiceApp, kafkaPlugin } from '@marketplace/service-kit'
import type { MediaConfig } from './config'
import { mediaSubscriptions } from './events/subscriptions'
import { setUpStorage } from './storage/storage'
import { uploadRoutes } from './uploads/upload-routes'

/** Builds the media service: plugins first, then routes (STYLE.md, fastify/demo). */
export async function buildMediaApp(config: MediaConfig) {
  const app = await createServiceApp({
    serviceName: config.SERVICE_NAME,
    logLevel: config.LOG_LEVEL,
  })
  setUpStorage(app, config)
  await app.register(kafkaPlugin, {
    brokers: config.KAFKA_BROKERS,
    clientId: config.SERVICE_NAME,
    outboxCollections: [],
    pollMs: config.OUTBOX_POLL_MS,
    consumers: mediaSubscriptions({
      deleteUnderPrefix: (prefix) => app.storage.deleteUnderPrefix(prefix),
      logger: app.log.child({ component: 'user-deleted' }),
    }),
    groupPrefix: config.KAFKA_GROUP_PREFIX,
  })
  // No revocation check here (people and auth have one): a slot only lets the caller put a
  // picture under their own prefix for a few minutes, and the service that stores the key
  // checks the token again.
  await app.register(authPlugin, {
    publicKey: config.JWT_PUBLIC_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  })
  await uploadRoutes(app)
  return app
}
