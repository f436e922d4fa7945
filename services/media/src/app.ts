import { buildService } from '@marketplace/service-kit'
import type { MediaConfig } from './config'
import { mediaSubscriptions } from './events/subscriptions'
import { setUpStorage } from './storage/storage'
import { createAttachPicture } from './uploads/attach-picture'
import { createForgetUserUploads } from './uploads/forget-user-uploads'
import { createProcessPicture } from './uploads/process-picture'
import { uploadRoutes } from './uploads/upload-routes'
import { createUploadSweep, scheduleUploadSweep } from './uploads/upload-sweep'
import { createUploadsRepository, uploadIndexes } from './uploads/uploads-repository'

/**
 * Pre-signed upload slots for pictures, with the bookkeeping around them: a daily quota per
 * user, which uploads a post or a profile took up, and a sweep of those nobody did. No
 * revocation check (people and auth have one): a slot only lets the caller put a picture
 * under their own prefix for a few minutes, and the service that stores the key checks the
 * token again.
 */
export function buildMediaApp(config: MediaConfig) {
  return buildService(config, {
    database: { indexes: uploadIndexes, outbox: [] },
    compose({ app, db }) {
      setUpStorage(app, config)
      const uploads = createUploadsRepository(db)
      const processPicture = createProcessPicture({
        readPicture: (key) => app.storage.readPicture(key),
        pictureExists: (key) => app.storage.pictureExists(key),
        putVariant: (file) => app.storage.putVariant(file),
        deleteObjects: (keys) => app.storage.deleteObjects(keys),
        logger: app.log.child({ component: 'pictures' }),
      })
      const attachPicture = createAttachPicture({
        uploads,
        applyPictureCachePolicy: (key) => app.storage.applyPictureCachePolicy(key),
        processPicture,
        logger: app.log.child({ component: 'attachments' }),
      })
      const sweepUnattachedUploads = createUploadSweep({
        uploads,
        deleteObjects: (keys) => app.storage.deleteObjects(keys),
        maxAgeMs: config.UNATTACHED_UPLOAD_MAX_AGE_HOURS * 3_600_000,
        logger: app.log.child({ component: 'upload-sweep' }),
      })
      const stopSweep = scheduleUploadSweep(
        sweepUnattachedUploads,
        config.UPLOAD_SWEEP_INTERVAL_SECONDS * 1000,
        app.log.child({ component: 'upload-sweep' }),
      )
      return {
        subscriptions: mediaSubscriptions({
          deleteUnderPrefix: (prefix) => app.storage.deleteUnderPrefix(prefix),
          forgetUserUploads: createForgetUserUploads({ uploads }),
          attachPicture,
          logger: app.log.child({ component: 'user-deleted' }),
        }),
        routes: uploadRoutes({
          signPut: app.storage.signPut,
          uploads,
          uploadsPerDay: config.UPLOADS_PER_DAY,
          processPicture,
          completesPerMinute: config.UPLOAD_COMPLETES_PER_MINUTE,
        }),
        close: stopSweep,
        expose: { sweepUnattachedUploads },
      }
    },
  })
}
