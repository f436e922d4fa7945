import { authPlugin, createServiceApp } from '@marketplace/service-kit'
import type { MediaConfig } from './config'
import { uploadRoutes } from './routes/upload-routes'
import { setUpStorage } from './storage/storage'

/** Builds the media service: plugins first, then routes (STYLE.md, fastify/demo). */
export async function buildMediaApp(config: MediaConfig) {
  const app = await createServiceApp({
    serviceName: config.SERVICE_NAME,
    logLevel: config.LOG_LEVEL,
  })
  setUpStorage(app, config)
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
