import type { EventData } from '@marketplace/contracts/events'
import {
  LIVE_EVENTS,
  type LiveConversationRead,
  type LiveMessage,
  type LiveMessageTakenDown,
} from '@marketplace/contracts/marketplace'

/** One push: to whose sockets, under which live event name, with what. */
export interface LiveDelivery {
  userId: string
  name: (typeof LIVE_EVENTS)[keyof typeof LIVE_EVENTS]
  payload: LiveMessage | LiveConversationRead | LiveMessageTakenDown
}

/**
 * message.sent: the recipient gets the message with their badges' counts; the sender's
 * sockets (their other tabs, and the sending one, which knows it by clientId and _id) get
 * it without counts, which are the recipient's. Nobody else: the text is private.
 */
export function deliveriesOfMessageSent(data: EventData<'message.sent'>): LiveDelivery[] {
  const shared: LiveMessage = {
    message: {
      _id: data.messageId,
      conversationId: data.conversationId,
      senderId: data.senderId,
      text: data.text,
      sentAt: data.sentAt,
      clientId: data.clientId,
      seen: false,
      takenDown: false,
    },
    senderName: data.senderName,
    postTitle: data.postTitle,
  }
  return [
    {
      userId: data.recipientId,
      name: LIVE_EVENTS.message,
      payload: {
        ...shared,
        unreadCount: data.recipientUnreadCount,
        unreadTotal: data.recipientUnreadTotal,
      },
    },
    { userId: data.senderId, name: LIVE_EVENTS.message, payload: shared },
  ]
}

/**
 * message.read: the other party's "Seen"; the reader's other tabs clear their badges with the
 * reader's new total, which is nobody else's business.
 */
export function deliveriesOfMessageRead(data: EventData<'message.read'>): LiveDelivery[] {
  const read: LiveConversationRead = {
    conversationId: data.conversationId,
    readerId: data.readerId,
    readAt: data.readAt,
  }
  return [
    { userId: data.otherId, name: LIVE_EVENTS.conversationRead, payload: read },
    {
      userId: data.readerId,
      name: LIVE_EVENTS.conversationRead,
      payload: { ...read, unreadTotal: data.readerUnreadTotal },
    },
  ]
}

/** message.taken-down: hidden in both parties' open threads. */
export function deliveriesOfMessageTakenDown(
  data: EventData<'message.taken-down'>,
): LiveDelivery[] {
  const payload: LiveMessageTakenDown = {
    conversationId: data.conversationId,
    messageId: data.messageId,
  }
  return [data.senderId, data.recipientId].map((userId) => ({
    userId,
    name: LIVE_EVENTS.messageTakenDown,
    payload,
  }))
}
