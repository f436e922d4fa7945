import type {
  LiveConversationRead,
  LiveMessage,
  LiveMessageTakenDown,
} from '@marketplace/contracts/marketplace'
import type { AppDispatch } from '@/app/store'
import {
  conversationsMayHaveBeenMissed,
  messageReceived,
  messageTakenDown,
  readByOtherParty,
  unreadCountSet,
} from '@/features/conversations/conversations-api'
import { unreadApi, unreadTotalReceived } from '@/features/conversations/unread-api'

/** What the live connection hands the conversations feature. */
export interface ConversationPushes {
  message(payload: LiveMessage): void
  conversationRead(payload: LiveConversationRead): void
  messageTakenDown(payload: LiveMessageTakenDown): void
  /** The socket connected again: pushes during the gap are lost. */
  reconnected(): void
  /** Sign-out or another user: drop the subscription to the unread total. */
  stop(): void
}

/**
 * The conversations side of the live connection, for the signed-in user `userId`: holds the
 * subscription to the unread total (the badges only read it) and turns each push into a
 * patch of the held caches: no request per message, so a busy conversation causes no
 * refetch storm. Loaded with socket.io-client once someone signs in (docs/web-app.md).
 */
export function followConversations(dispatch: AppDispatch, userId: string): ConversationPushes {
  const total = dispatch(
    unreadApi.endpoints.getUnreadMessageTotal.initiate(undefined, { forceRefetch: true }),
  )
  return {
    message({ message, unreadCount, unreadTotal }) {
      if (!message?._id || !message.conversationId) return
      // A push to the sender's other tabs carries no counts; the recipient's always do.
      dispatch(messageReceived(message, { unreadCount, unreadTotal }))
    },
    conversationRead({ conversationId, readerId, readAt, unreadTotal }) {
      if (readerId === userId) {
        // Read on another device: nothing is unread here either.
        dispatch(unreadCountSet(conversationId, 0))
        if (unreadTotal !== undefined) dispatch(unreadTotalReceived(unreadTotal))
      } else {
        dispatch(readByOtherParty(conversationId, userId, readAt))
      }
    },
    messageTakenDown({ conversationId, messageId }) {
      dispatch(messageTakenDown(conversationId, messageId))
    },
    reconnected() {
      dispatch(conversationsMayHaveBeenMissed())
    },
    stop() {
      total.unsubscribe()
    },
  }
}
