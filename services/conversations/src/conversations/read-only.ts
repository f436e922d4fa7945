import type { ReadOnlyReason } from '@marketplace/contracts/api'
import { READ_ONLY_MESSAGES } from '@marketplace/contracts/marketplace'
import { isDeletionPending, type UserCard } from '../users/user-directory'
import type { ConversationDocument } from './conversation-document'

/**
 * Why nobody can write in the conversation any more, or null. A purged account outweighs
 * everything (it never comes back); then the request's own end; then a block; then an account
 * in its grace period, which "Keep my account" lifts again unless something else closed the conversation.
 */
export function readOnlyReason(
  conversation: ConversationDocument,
  cards: ReadonlyMap<string, UserCard>,
  /** One party blocked the other (docs/blocking.md): said neutrally, to both. */
  blocked = false,
): ReadOnlyReason | null {
  const parties = [cards.get(conversation.requesterId), cards.get(conversation.otherId)]
  if (parties.some((card) => card?.deleted)) return 'account-deleted'
  if (conversation.closedBy) return conversation.closedBy
  if (blocked) return 'unavailable'
  if (parties.some(isDeletionPending)) return 'account-deletion-pending'
  return null
}

export const readOnlyMessage = (reason: ReadOnlyReason | null) =>
  reason ? READ_ONLY_MESSAGES[reason] : null
