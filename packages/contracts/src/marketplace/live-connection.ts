/** Socket.IO client options and the re-authenticate retry. */
export const LIVE_CONNECTION = {
  reconnectionAttempts: 5,
  reconnectionDelayMs: 1000,
  timeoutMs: 5000,
  reauthenticateRetryMs: 2000,
  /**
   * How long before its access token expires the server sends `token-expiring`: time for the
   * client to renew its session and send `reauthenticate` before the server closes the socket.
   */
  tokenExpiringLeadMs: 60_000,
} as const

/** Event names on the live connection. */
export const LIVE_EVENTS = {
  authenticate: 'authenticate',
  authenticated: 'authenticated',
  notification: 'notification',
  /**
   * Conversations, server to client. `message`: a message the user sent or got
   * (payload LiveMessage); `conversation-read`: the other party read a conversation (the
   * sender's "Seen") or the user read it on another device (payload LiveConversationRead);
   * `message-taken-down`: a moderator removed a message (payload LiveMessageTakenDown).
   */
  message: 'message',
  conversationRead: 'conversation-read',
  messageTakenDown: 'message-taken-down',
  /**
   * A socket lives only as long as its access token. Client to server:
   * `reauthenticate` with LiveReauthenticate (a fresh token of the same user), answered by
   * `reauthenticated` { success }; the socket then lives until the new token's expiry.
   * Server to client: `token-expiring` (LiveTokenExpiring) a little before the expiry, and
   * `session-ended` (LiveSessionEnded) just before the server closes the socket.
   */
  reauthenticate: 'reauthenticate',
  reauthenticated: 'reauthenticated',
  tokenExpiring: 'token-expiring',
  sessionEnded: 'session-ended',
} as const

/** The `reauthenticate` payload: the client's fresh access token. */
export interface LiveReauthenticate {
  token: string
}

/** `token-expiring`: when the socket will be closed unless it re-authenticates. */
export interface LiveTokenExpiring {
  expiresAt: string
}

/**
 * `session-ended`: why the server closes the socket. `expired`: the token ran out without a
 * `reauthenticate`; `revoked`: the user's tokens were revoked (password changed or reset,
 * account deletion), so only a token issued since can connect again.
 */
export interface LiveSessionEnded {
  reason: 'expired' | 'revoked'
}

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
