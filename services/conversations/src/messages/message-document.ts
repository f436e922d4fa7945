import { CONVERSATION_LIMITS } from '@marketplace/contracts/marketplace'
import type { OutboxFields } from '@marketplace/service-kit'
import { CONVERSATIONS_COLLECTION } from '../conversations/conversation-document'

export const MESSAGE_BUCKETS_COLLECTION = 'message_buckets'
/**
 * A sender's `clientId` claimed by a send: a retried send finds it by `_id`. The claims live
 * in the conversations' collection (their `_id` is the conversation's followed by the sender
 * and the client id, so it is neither a conversation's nor an inbox's) so that a send's claim
 * goes in the send's one bulk write (send-write.ts; docs/conversations.md, "What a message
 * costs the database").
 */
export const CLIENT_IDS_COLLECTION = CONVERSATIONS_COLLECTION
/** Where claims were kept before they joined the inboxes: still emptied by a purge. */
export const LEGACY_CLIENT_IDS_COLLECTION = 'message_client_ids'

/** Messages per bucket: one page, so a page is at most two bucket reads. */
export const BUCKET_SIZE = CONVERSATION_LIMITS.pageSize

export interface StoredMessage {
  seq: number
  senderId: string
  /** Emptied when the sender's account is purged; kept (never shown) when taken down. */
  text: string
  sentAt: Date
  clientId: string | null
  takenDown: boolean
  /** A line the marketplace adds about the request (system-lines.ts); no sender. */
  system?: true
}

/** The sender of a system line: nobody. */
export const SYSTEM_SENDER_ID = ''

/**
 * Messages `BUCKET_SIZE * bucket + 1` to `BUCKET_SIZE * (bucket + 1)` of one conversation,
 * keyed `m<seq>` (an object rather than an array: a message is set, taken down or emptied by
 * its path, with no positional operator, and parallel sends land in any order).
 */
export interface MessageBucketDocument extends OutboxFields {
  /** `<conversationId>:b<bucket>` */
  _id: string
  conversationId: string
  bucket: number
  messages: Record<string, StoredMessage>
}

export interface ClientIdDocument {
  /** `<conversationId>:<senderId>:<clientId>` */
  _id: string
  conversationId: string
  senderId: string
  /**
   * The conversation's last number when the id was claimed: the message it became (if it was
   * stored) is among the next few, where a retry looks for it by its `clientId`. Knowing
   * where to look spares every send a second write to record its number here.
   */
  afterSeq: number
  claimedAt: Date
  /**
   * The number this clientId's message was given, set by the write that numbered it (and only
   * while `claimedAt` is the numbering send's own). A retry that finds a number here but no
   * message stores the message under that same number instead of numbering it again, so a
   * send that is slow rather than dead can never leave two copies.
   */
  seq?: number
  /** When the numbered message was sent (set with `seq`): the time a retry stores it with. */
  sentAt?: Date
}

export const bucketOf = (seq: number) => Math.floor((seq - 1) / BUCKET_SIZE)
export const bucketId = (conversationId: string, bucket: number) => `${conversationId}:b${bucket}`
export const messageKey = (seq: number) => `m${seq}`
export const messageIdOf = (conversationId: string, seq: number) => `${conversationId}:${seq}`
export const clientIdKey = (conversationId: string, senderId: string, clientId: string) =>
  `${conversationId}:${senderId}:${clientId}`

const MESSAGE_ID = /^((?:jr|pr):[0-9A-Za-z_-]{1,40}):([1-9]\d{0,8})$/

/** The conversation and number a message id names, or null for anything else. */
export function parseMessageId(messageId: string): { conversationId: string; seq: number } | null {
  const match = MESSAGE_ID.exec(messageId)
  return match ? { conversationId: match[1]!, seq: Number(match[2]) } : null
}
