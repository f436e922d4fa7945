import { authPlugin, createServiceApp, kafkaPlugin, mongoPlugin } from '@marketplace/service-kit'
import type { AuthConfig } from './config'
import { passwordHasher, type PasswordHasher } from './domain/password-hasher'
import {
  CREDENTIALS,
  credentialIndexes,
  createCredentialsRepository,
  type CredentialsRepository,
} from './repositories/credentials-repository'
import { signupRoutes } from './routes/signup'

export interface AuthDependencies {
  credentials: CredentialsRepository
  hasher: PasswordHasher
}

/** Builds the auth service: plugins first, then routes (STYLE.md, fastify/demo). */
export async function buildAuthApp(config: AuthConfig) {
  const app = await createServiceApp({
    serviceName: config.SERVICE_NAME,
    logLevel: config.LOG_LEVEL,
  })
  await app.register(mongoPlugin, { url: config.MONGO_URL, indexes: credentialIndexes })
  await app.register(kafkaPlugin, {
    brokers: config.KAFKA_BROKERS,
    clientId: config.SERVICE_NAME,
    outboxCollections: [CREDENTIALS],
    pollMs: config.OUTBOX_POLL_MS,
    consumers: [],
    groupPrefix: config.KAFKA_GROUP_PREFIX,
  })
  await app.register(authPlugin, {
    publicKey: config.JWT_PUBLIC_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  })
  const deps: AuthDependencies = {
    credentials: createCredentialsRepository(app.mongo.db),
    hasher: passwordHasher,
  }
  await app.register(signupRoutes, deps)
  return app
}
