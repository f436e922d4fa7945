import type { ConversationRequestKind, ReadOnlyReason } from '@marketplace/contracts/api'
import type { OutboxFields } from '@marketplace/service-kit'

export const CONVERSATIONS_COLLECTION = 'conversations'
/** Which conversations a post's requests opened: post.deleted closes them by one `_id` read. */
export const POST_CONVERSATIONS_COLLECTION = 'post_conversations'

/** The two sides: who sent the request, and the post owner or requested worker. */
export type PartyRole = 'requester' | 'other'

/** What closes a conversation from the request's side (the accounts' side is the directory's). */
export type RequestClosure = Extract<ReadOnlyReason, 'request-withdrawn' | 'request-deleted'>

export interface LastMessage {
  senderId: string
  text: string
  sentAt: Date
  takenDown: boolean
}

/**
 * One conversation per request. Its `_id` is made of the request's kind and id, so a replayed
 * request event names the same document and the database keeps one. `seq` numbers the
 * messages (taken with `$inc`, which also sets `lastMessage` in the same write, so the last
 * message is always message `seq`); `lastRead` is how far each side has read ("Seen").
 * Unread counts live in each party's inbox (inbox-document.ts), next to the total they add to.
 */
export interface ConversationDocument extends OutboxFields {
  _id: string
  requestKind: ConversationRequestKind
  requestId: string
  postId: string
  postTitle: string
  requesterId: string
  otherId: string
  /** The names the request's event carried: shown until the directory knows the user. */
  names: Record<PartyRole, string>
  seq: number
  lastRead: Record<PartyRole, number>
  lastMessage: LastMessage | null
  lastActivityAt: Date
  /** The request was withdrawn or deleted: nobody writes any more. */
  closedBy: RequestClosure | null
  /** The events already told as system lines (system-lines.ts); absent before the first. */
  systemLines?: string[]
  openedAt: Date
}

export interface PostConversationsDocument {
  /** The post id. */
  _id: string
  conversationIds: string[]
}

const PREFIX: Record<ConversationRequestKind, string> = {
  'post-request': 'jr',
  'person-request': 'pr',
}

/** `jr:<id>` for a request on a post (job-request.*), `pr:<id>` for one to a person. */
export const conversationIdOf = (kind: ConversationRequestKind, requestId: string) =>
  `${PREFIX[kind]}:${requestId}`

const CONVERSATION_ID = /^(jr|pr):[0-9A-Za-z_-]{1,40}$/

export const isConversationId = (value: string) => CONVERSATION_ID.test(value)

/** The conversation ids a request id may have (by-request does not say which kind). */
export const conversationIdsOfRequest = (requestId: string) =>
  (Object.keys(PREFIX) as ConversationRequestKind[])
    .map((kind) => conversationIdOf(kind, requestId))
    .filter(isConversationId)

export function roleOf(conversation: ConversationDocument, userId: string): PartyRole | null {
  if (conversation.requesterId === userId) return 'requester'
  if (conversation.otherId === userId) return 'other'
  return null
}

export const otherRole = (role: PartyRole): PartyRole =>
  role === 'requester' ? 'other' : 'requester'

export const partyId = (conversation: ConversationDocument, role: PartyRole) =>
  role === 'requester' ? conversation.requesterId : conversation.otherId
