import type { FastifyBaseLogger } from 'fastify'
import type { ConsumerDefinition } from '@marketplace/service-kit'
import { userDeletedHandler } from './user-deleted.handler'

/**
 * Every event the media service reacts to, in one place. Only user.deleted: upload slots are
 * signed from the token alone, so the service keeps no read model of anyone's events.
 */
export function mediaSubscriptions(deps: {
  deleteUnderPrefix(prefix: string): Promise<number>
  logger: FastifyBaseLogger
}): ConsumerDefinition[] {
  return [
    {
      groupId: 'media',
      // Deleting what is already gone changes nothing: no ledger (and no database) needed.
      useLedger: false,
      handlers: { 'user.deleted': userDeletedHandler(deps) },
    },
  ]
}
