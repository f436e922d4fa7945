import type { FastifyBaseLogger } from 'fastify'
import { UPLOAD_KEY_PREFIXES } from '@marketplace/contracts/marketplace'
import type { EventHandler } from '@marketplace/service-kit'
import { stagingKeyOf } from '../storage/staging-keys'

/**
 * user.deleted (the 30-day grace period is over, docs/people.md): the user's uploads go, the
 * profile pictures under userImages/{userId}/ and the post pictures under jobImages/{userId}/.
 * Upload slots put every object under its uploader's id (docs/media.md), so the two prefixes
 * hold everything the user ever uploaded (and their staging copies, staging-keys.ts), and
 * nothing of anyone else. Then the bookkeeping of
 * slots not yet swept forgets the user too.
 */
export function userDeletedHandler(deps: {
  deleteUnderPrefix(prefix: string): Promise<number>
  forgetUserUploads(userId: string): Promise<number>
  logger: FastifyBaseLogger
}): EventHandler<'user.deleted'> {
  return async ({ data }) => {
    let deleted = 0
    for (const root of [UPLOAD_KEY_PREFIXES.user, UPLOAD_KEY_PREFIXES.job]) {
      deleted += await deps.deleteUnderPrefix(`${root}${data.userId}/`)
      deleted += await deps.deleteUnderPrefix(stagingKeyOf(`${root}${data.userId}/`))
    }
    // Objects first: a failure in between is redelivered, and both steps are idempotent.
    const slots = await deps.forgetUserUploads(data.userId)
    deps.logger.info({ userId: data.userId, deleted, slots }, "a deleted user's pictures removed")
  }
}
