import type { FastifyBaseLogger } from 'fastify'
import { isUploadKey } from '@marketplace/contracts/marketplace'
import type { CachePolicyOutcome } from '../storage/cache-policy'
import type { ProcessPicture } from './process-picture'
import type { UploadsRepository } from './uploads-repository'

/**
 * A post or a profile names a picture: the sweep must keep it, it is served from now on with
 * the service's headers, and it has its sizes (made now if the uploader never called
 * /api/upload/complete; bytes that are not a picture are removed then). Every step is
 * idempotent, so a redelivered event, or every later post.updated naming the same key,
 * changes nothing (the headers are only rewritten when they differ, the variants only made
 * when missing).
 */
export function createAttachPicture(deps: {
  uploads: Pick<UploadsRepository, 'markAttached'>
  applyPictureCachePolicy(key: string): Promise<CachePolicyOutcome>
  processPicture: ProcessPicture
  logger: FastifyBaseLogger
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())
  return async function attachPicture(key: string | null | undefined): Promise<void> {
    if (!key || !isUploadKey(key)) return
    // Kept first: a failure of the storage step retries the event, and the sweep meanwhile
    // already knows the picture is in use.
    const firstAttachment = await deps.uploads.markAttached(key, now())
    // Published first: a client that never called complete left its bytes in staging, and
    // the public original only exists once they are checked and cleaned.
    const picture = (await deps.processPicture(key, { facts: false })).outcome
    const headers =
      picture === 'missing' || picture === 'refused'
        ? 'missing'
        : await deps.applyPictureCachePolicy(key)
    if (firstAttachment || headers === 'applied' || picture === 'made') {
      deps.logger.debug({ key, firstAttachment, headers, picture }, 'picture attached')
    }
  }
}

export type AttachPicture = ReturnType<typeof createAttachPicture>
