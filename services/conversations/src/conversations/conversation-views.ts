import type { ConversationView } from '@marketplace/contracts/api'
import { TAKEN_DOWN_MESSAGE_TEXT } from '@marketplace/contracts/marketplace'
import type { InboxEntry } from '../inbox/inbox-document'
import { displayName, type UserCard } from '../users/user-directory'
import {
  otherRole,
  partyId,
  roleOf,
  type ConversationDocument,
  type LastMessage,
} from './conversation-document'
import { readOnlyMessage, readOnlyReason } from './read-only'

function lastMessageView(message: LastMessage | null): ConversationView['lastMessage'] {
  if (!message) return null
  return {
    text: message.takenDown ? TAKEN_DOWN_MESSAGE_TEXT : message.text,
    senderId: message.senderId,
    sentAt: message.sentAt.toISOString(),
  }
}

/**
 * The conversation as one of its parties sees it: the other party's name and picture (from
 * the directory, "Deleted user" after the purge), the viewer's own unread count, and why it
 * is read-only. `cards` holds both parties' cards when the directory knows them.
 */
export function conversationView(
  conversation: ConversationDocument,
  viewerId: string,
  cards: ReadonlyMap<string, UserCard>,
  entry: InboxEntry | undefined,
  /** The people the viewer blocked or was blocked by (docs/blocking.md). */
  hidden: ReadonlySet<string> = new Set(),
): ConversationView {
  const role = roleOf(conversation, viewerId)
  if (!role) throw new Error('a conversation is only shown to its parties')
  const other = otherRole(role)
  const otherId = partyId(conversation, other)
  const card = cards.get(otherId)
  const reason = readOnlyReason(conversation, cards, hidden.has(otherId))
  return {
    _id: conversation._id,
    requestKind: conversation.requestKind,
    requestId: conversation.requestId,
    postId: conversation.postId,
    postTitle: conversation.postTitle,
    otherParty: {
      userId: otherId,
      name: displayName(card, conversation.names[other]),
      profilePicture: card?.deleted ? null : (card?.profilePicture ?? null),
    },
    lastMessage: lastMessageView(conversation.lastMessage),
    lastActivityAt: conversation.lastActivityAt.toISOString(),
    unreadCount: entry?.unread ?? 0,
    readOnly: reason,
    readOnlyMessage: readOnlyMessage(reason),
    openedAt: conversation.openedAt.toISOString(),
  }
}
