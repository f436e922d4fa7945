import {
  TOKEN_REVOCATIONS_INDEXES,
  authPlugin,
  createServiceApp,
  createTokenRevocations,
  kafkaPlugin,
  mongoPlugin,
} from '@marketplace/service-kit'
import type { PeopleConfig } from './config'
import { peopleSubscriptions } from './events/subscriptions'
import { createProfilesRepository, profileIndexes } from './repositories/profiles-repository'

export async function buildPeopleApp(config: PeopleConfig) {
  const app = await createServiceApp({
    serviceName: config.SERVICE_NAME,
    logLevel: config.LOG_LEVEL,
  })
  await app.register(mongoPlugin, {
    url: config.MONGO_URL,
    indexes: [...profileIndexes, ...TOKEN_REVOCATIONS_INDEXES],
  })
  const profiles = createProfilesRepository(app.mongo.db)
  // Tokens issued before a password change, reset or deletion request (user.tokens-revoked).
  const tokenRevocations = createTokenRevocations(app.mongo.db)
  await app.register(kafkaPlugin, {
    brokers: config.KAFKA_BROKERS,
    clientId: config.SERVICE_NAME,
    outboxCollections: [],
    pollMs: config.OUTBOX_POLL_MS,
    consumers: peopleSubscriptions({ profiles, tokenRevocations }),
    groupPrefix: config.KAFKA_GROUP_PREFIX,
  })
  await app.register(authPlugin, {
    publicKey: config.JWT_PUBLIC_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    isTokenStillValid: tokenRevocations.isTokenStillValid,
  })
  return app
}
