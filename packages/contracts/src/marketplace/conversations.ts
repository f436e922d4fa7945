/**
 * Conversations (docs/conversations.md): one per request, between its two sides.
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
  unavailable: 'This conversation is closed: messages can no longer be sent here.',
} as const

/** Shown instead of a purged user's name, and instead of a taken-down message. */
export const DELETED_USER_NAME = 'Deleted user'
export const TAKEN_DOWN_MESSAGE_TEXT = 'This message was removed by a moderator'

/** The service's answers that are the product's copy (docs/conversations.md). */
export const CONVERSATION_MESSAGES = {
  notFound: 'Conversation not found',
  messageNotFound: 'Message not found',
  textLength: `Message must be between 1 and ${CONVERSATION_LIMITS.messageMaxLength} characters`,
  tooManyMessages: (retryAfterSeconds: number) =>
    `You are sending messages too fast (at most ${CONVERSATION_LIMITS.messagesPerMinute} a minute). Try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
  invalidCursor: 'Invalid cursor: pass the nextCursor of the previous page',
  sendInProgress: 'This message is still being sent; try again in a moment',
  alreadyReported: 'You have already submitted a report for this message',
  reported: 'Thank you: a moderator will review this message',
  systemLineNotReportable: 'Lines the marketplace adds to a conversation cannot be reported',
} as const

/** Characters of each message in a report's excerpt (moderation queue). */
export const REPORT_EXCERPT_TEXT_LENGTH = 280
/** Messages before and after the reported one in the excerpt. */
export const REPORT_EXCERPT_CONTEXT = 3

/** The notification a participant without an open socket gets, once per conversation until read. */
export const newMessageNotice = (senderName: string) => `New message from ${senderName}`
