import type { MessageView } from '@marketplace/contracts/api'
import {
  otherRole,
  roleOf,
  type ConversationDocument,
} from '../conversations/conversation-document'
import { messageIdOf, type StoredMessage } from './message-document'

/**
 * A message as either party sees it: "Seen" once the recipient's read mark reached it; a
 * taken-down message keeps its place in the thread with its text emptied.
 */
export function messageView(
  conversation: ConversationDocument,
  message: StoredMessage,
): MessageView {
  const senderRole = roleOf(conversation, message.senderId)
  const recipientRead = senderRole ? conversation.lastRead[otherRole(senderRole)] : 0
  return {
    _id: messageIdOf(conversation._id, message.seq),
    conversationId: conversation._id,
    senderId: message.senderId,
    text: message.takenDown ? '' : message.text,
    sentAt: message.sentAt.toISOString(),
    clientId: message.clientId,
    seen: recipientRead >= message.seq,
    takenDown: message.takenDown,
    ...(message.system ? { system: true as const } : {}),
  }
}
