import { buildService } from '@marketplace/service-kit'
import type { MediaConfig } from './config'
import { mediaSubscriptions } from './events/subscriptions'
import { setUpStorage } from './storage/storage'
import { uploadRoutes } from './uploads/upload-routes'

/**
 * Pre-signed upload slots for pictures; no database of its own. No revocation check either
 * (people and auth have one): a slot only lets the caller put a picture under their own
 * prefix for a few minutes, and the service that stores the key checks the token again.
 */
export function buildMediaApp(config: MediaConfig) {
  return buildService(config, {
    compose({ app }) {
      setUpStorage(app, config)
      return {
        subscriptions: mediaSubscriptions({
          deleteUnderPrefix: (prefix) => app.storage.deleteUnderPrefix(prefix),
          logger: app.log.child({ component: 'user-deleted' }),
        }),
        routes: uploadRoutes,
      }
    },
  })
}
