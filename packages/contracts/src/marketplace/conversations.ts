/**
 * Conversations (issue 17, docs/conversations.md): one per request, between its two sides.
 * The limits and the copy the service and the web app share.
 */
export const CONVERSATION_LIMITS = {
  /** Characters of a message after trimming. */
  messageMaxLength: 2000,
  /** Messages a user may send per minute, across conversations (429 with Retry-After). */
  messagesPerMinute: 30,
  /** Conversations and messages per page. */
  pageSize: 30,
} as const

/** Shown above a read-only thread, and as the 409's message when someone sends anyway. */
export const READ_ONLY_MESSAGES = {
  'request-withdrawn': 'This conversation is closed: the request was withdrawn.',
  'request-deleted': 'This conversation is closed: the request was deleted.',
  'account-deleted': 'This conversation is closed: the other account was deleted.',
  'account-deletion-pending': 'This conversation is closed: an account in it is being deleted.',
} as const

/** Shown instead of a purged user's name, and instead of a taken-down message. */
export const DELETED_USER_NAME = 'Deleted user'
export const TAKEN_DOWN_MESSAGE_TEXT = 'This message was removed by a moderator'

/** The notification a participant without an open socket gets, once per conversation until read. */
export const newMessageNotice = (senderName: string) => `New message from ${senderName}`
