import type { FastifyBaseLogger } from 'fastify'
import type { ConsumerDefinition } from '@marketplace/service-kit'
import type { AttachPicture } from '../uploads/attach-picture'
import { pictureAttachedHandlers } from './picture-attached.handlers'
import { userDeletedHandler } from './user-deleted.handler'

/**
 * Every event the media service reacts to, in one place: user.deleted (a purged user's
 * pictures go) and the post and profile events that name a picture in use.
 */
export function mediaSubscriptions(deps: {
  deleteUnderPrefix(prefix: string): Promise<number>
  forgetUserUploads(userId: string): Promise<number>
  attachPicture: AttachPicture
  logger: FastifyBaseLogger
}): ConsumerDefinition[] {
  return [
    {
      groupId: 'media',
      // Deleting what is already gone changes nothing: no ledger needed.
      useLedger: false,
      handlers: { 'user.deleted': userDeletedHandler(deps) },
    },
    {
      // A group of its own: a storage fault while attaching must not hold up a purge. It reads
      // the topics from the beginning when new, so pictures attached before this group
      // existed get their headers too.
      groupId: 'media-attachments',
      // Marking attached and rewriting the headers again changes nothing: no ledger needed.
      useLedger: false,
      handlers: pictureAttachedHandlers(deps.attachPicture),
    },
  ]
}
