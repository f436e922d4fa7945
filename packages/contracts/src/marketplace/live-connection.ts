/** Socket.IO client options and the re-authenticate retry (spec 1 §4 "Live connection", §9). */
export const LIVE_CONNECTION = {
  reconnectionAttempts: 5,
  reconnectionDelayMs: 1000,
  timeoutMs: 5000,
  reauthenticateRetryMs: 2000,
} as const

/** Event names on the live connection (spec 1 §7). */
export const LIVE_EVENTS = {
  authenticate: 'authenticate',
  authenticated: 'authenticated',
  notification: 'notification',
  /**
   * Conversations (issue 17), server to client. `message`: a message the user sent or got
   * (payload LiveMessage); `conversation-read`: the other party read a conversation (the
   * sender's "Seen") or the user read it on another device (payload LiveConversationRead);
   * `message-taken-down`: a moderator removed a message (payload LiveMessageTakenDown).
   */
  message: 'message',
  conversationRead: 'conversation-read',
  messageTakenDown: 'message-taken-down',
} as const

/** The `message` push: the stored message and the recipient's badges. */
export interface LiveMessage {
  message: {
    _id: string
    conversationId: string
    senderId: string
    text: string
    sentAt: string
    clientId: string | null
    seen: boolean
    takenDown: boolean
  }
  senderName: string
  postTitle: string
  /** For the recipient: unread in this conversation and in all; for the sender's other tabs: absent. */
  unreadCount?: number
  unreadTotal?: number
}

export interface LiveConversationRead {
  conversationId: string
  readerId: string
  readAt: string
  /** Present when the reader is the user themself (another tab): their new total. */
  unreadTotal?: number
}

export interface LiveMessageTakenDown {
  conversationId: string
  messageId: string
}
