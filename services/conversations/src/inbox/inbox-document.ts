import { CONVERSATIONS_COLLECTION } from '../conversations/conversation-document'

/**
 * The inboxes are kept in the conversations' collection (an inbox's `_id` is a user id, a
 * conversation's starts with `jr:` or `pr:`): a send changes both inboxes and its
 * conversation, and one collection lets that be one ordered bulk write
 * (messages/send-write.ts). Before that they had a collection of their own, `inboxes`.
 */
export const INBOXES_COLLECTION = CONVERSATIONS_COLLECTION

export interface InboxEntry {
  /** Messages from the other party the owner has not read. */
  unread: number
  lastActivityAt: Date
}

/**
 * One per user (`_id` is the user id): every conversation the user is a party of, with its
 * unread count and last activity, and the total of the counts. The list, the badge and a
 * read are each one read or write of this document, whatever the number of messages; the
 * counts and their total change in the same single-document write, so they always agree.
 * Keys of `conversations` are conversation ids (`jr:<id>`: no dots, no leading `$`).
 */
export interface InboxDocument {
  _id: string
  unreadTotal: number
  conversations: Record<string, InboxEntry>
  /**
   * The owner's send budget (messages/send-rate-limit.ts): kept here so that counting a send
   * and moving its conversation up the sender's own list are one write.
   */
  sending?: SendWindow
}

/** The messages sent in the minute that started at `windowStart`. */
export interface SendWindow {
  windowStart: Date
  count: number
  /**
   * One key per send counted in this window (at most the budget's): how a send whose bulk
   * write failed further on learns that its budget's update landed, which the local server's
   * error does not say (messages/send-write.ts).
   */
  sends?: Record<string, true>
}
