import { Type, type Static } from '@sinclair/typebox'
import { CONVERSATION_LIMITS } from '../marketplace/conversations'

/**
 * The conversations service's HTTP contract (docs/conversations.md): one private
 * conversation per request, between the requester and the other side. Every route answers
 * 404 for a conversation the caller is not a party of, exactly as for one that does not
 * exist. Bodies declare their fields' types only: the rules whose messages are the
 * product's copy (text length, read-only reasons) run in the service.
 */

const Timestamp = (description: string) => Type.String({ format: 'date-time', description })
const NullableString = (options: { description?: string } = {}) =>
  Type.Union([Type.String(), Type.Null()], options)

/** Which request opened the conversation: on a post (jobs) or to a person (people). */
export const ConversationRequestKindSchema = Type.Union(
  [Type.Literal('post-request'), Type.Literal('person-request')],
  {
    description:
      'post-request: a worker asked to do a post (the other side is the post owner); person-request: a post owner asked a worker (the other side is the worker)',
  },
)
export type ConversationRequestKind = Static<typeof ConversationRequestKindSchema>

/** Why nobody can write any more; null while the conversation is open. */
export const ReadOnlyReasonSchema = Type.Union(
  [
    Type.Literal('request-withdrawn'),
    Type.Literal('request-deleted'),
    Type.Literal('account-deleted'),
    Type.Literal('account-deletion-pending'),
    /** One side blocked the other (docs/blocking.md); said neutrally, never who did. */
    Type.Literal('unavailable'),
  ],
  { title: 'ReadOnlyReason' },
)
export type ReadOnlyReason = Static<typeof ReadOnlyReasonSchema>

export const ConversationPartySchema = Type.Object(
  {
    userId: Type.String(),
    name: Type.String({
      description: 'Full name, or "Deleted user" after the purge',
      examples: ['Mia Member'],
    }),
    profilePicture: NullableString({ description: 'Worker profile picture URL, if any' }),
  },
  { title: 'ConversationParty' },
)
export type ConversationParty = Static<typeof ConversationPartySchema>

export const LastMessageSchema = Type.Object(
  {
    text: Type.String({
      description: 'The message text; "This message was removed by a moderator" when taken down',
    }),
    senderId: Type.String(),
    sentAt: Timestamp('When it was sent'),
  },
  { title: 'LastMessage' },
)

/** A conversation as one of its two parties sees it (list rows and the thread's header). */
export const ConversationViewSchema = Type.Object(
  {
    _id: Type.String({ description: 'The conversation id' }),
    requestKind: ConversationRequestKindSchema,
    requestId: Type.String({ description: 'The request that opened it' }),
    postId: Type.String(),
    postTitle: Type.String({ examples: ['Move a piano'] }),
    otherParty: ConversationPartySchema,
    lastMessage: Type.Union([LastMessageSchema, Type.Null()]),
    lastActivityAt: Timestamp('The last message, or the opening when there is none'),
    unreadCount: Type.Integer({
      minimum: 0,
      description: 'Messages from the other party the caller has not read',
    }),
    readOnly: Type.Union([ReadOnlyReasonSchema, Type.Null()], {
      description: 'Why nobody can write any more (null while open)',
    }),
    readOnlyMessage: NullableString({
      description: 'The reason in words, as shown above the thread',
    }),
    openedAt: Timestamp('When the request was created'),
  },
  { title: 'Conversation' },
)
export type ConversationView = Static<typeof ConversationViewSchema>

/** GET /api/conversations: newest activity first, 30 a page. */
export const ConversationListQuerySchema = Type.Object(
  {
    cursor: Type.Optional(
      Type.String({ maxLength: 200, description: 'nextCursor of the previous page' }),
    ),
  },
  { additionalProperties: false },
)
export type ConversationListQuery = Static<typeof ConversationListQuerySchema>

export const ConversationListSchema = Type.Object(
  {
    items: Type.Array(ConversationViewSchema),
    nextCursor: NullableString({ description: 'Null on the last page' }),
    unreadTotal: Type.Integer({
      minimum: 0,
      description: 'Unread messages across all conversations',
    }),
  },
  { title: 'ConversationList' },
)
export type ConversationList = Static<typeof ConversationListSchema>

/** GET /api/conversations/unread: the badge's figure. */
export const UnreadTotalSchema = Type.Object(
  { unreadTotal: Type.Integer({ minimum: 0 }) },
  { title: 'UnreadTotal' },
)
export type UnreadTotal = Static<typeof UnreadTotalSchema>

export const ConversationParamsSchema = Type.Object({
  id: Type.String({ maxLength: 64, description: 'The conversation id' }),
})
export type ConversationParams = Static<typeof ConversationParamsSchema>

export const ConversationByRequestParamsSchema = Type.Object({
  requestId: Type.String({ maxLength: 64, description: 'A request id (post or person request)' }),
})
export type ConversationByRequestParams = Static<typeof ConversationByRequestParamsSchema>

export const MessageParamsSchema = Type.Object({
  id: Type.String({ maxLength: 64, description: 'The conversation id' }),
  messageId: Type.String({ maxLength: 64, description: 'The message id' }),
})
export type MessageParams = Static<typeof MessageParamsSchema>

/** A message as either party sees it. */
export const MessageViewSchema = Type.Object(
  {
    _id: Type.String({ description: 'The message id' }),
    conversationId: Type.String(),
    senderId: Type.String(),
    text: Type.String({
      description:
        "The text; empty when a moderator took it down (takenDown true) or the sender's account was purged",
    }),
    sentAt: Timestamp('When the server stored it'),
    clientId: NullableString({ description: "The sender's own id for the message, for retries" }),
    seen: Type.Boolean({ description: 'The recipient has read it ("Seen")' }),
    takenDown: Type.Boolean({ description: 'A moderator removed it' }),
    system: Type.Optional(
      Type.Literal(true, {
        description:
          'A line the marketplace adds (an offer, a counter-offer, the agreed amount): no sender (senderId empty), never unread, never reportable',
      }),
    ),
  },
  { title: 'Message' },
)
export type MessageView = Static<typeof MessageViewSchema>

/** GET /api/conversations/:id/messages: newest first, 30 a page, `before` a cursor. */
export const MessageHistoryQuerySchema = Type.Object(
  {
    before: Type.Optional(
      Type.String({ maxLength: 200, description: 'nextCursor of the previous page' }),
    ),
  },
  { additionalProperties: false },
)
export type MessageHistoryQuery = Static<typeof MessageHistoryQuerySchema>

export const MessageHistorySchema = Type.Object(
  {
    items: Type.Array(MessageViewSchema, { description: 'Newest first' }),
    nextCursor: NullableString({
      description: 'Older messages: pass as `before`; null at the start',
    }),
  },
  { title: 'MessageHistory' },
)
export type MessageHistory = Static<typeof MessageHistorySchema>

/** POST /api/conversations/:id/messages */
export const SendMessageBodySchema = Type.Object(
  {
    text: Type.Optional(
      Type.String({
        description: `1 to ${CONVERSATION_LIMITS.messageMaxLength} characters after trimming; otherwise 400 with the limit in the message`,
        examples: ['Hi! I can come on Saturday morning.'],
      }),
    ),
    clientId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'An id the client chose; sending the same clientId again answers 200 with the stored message instead of storing a second one (safe retries)',
      }),
    ),
  },
  { additionalProperties: false },
)
export type SendMessageBody = Static<typeof SendMessageBodySchema>

/** POST /api/conversations/:id/read: everything up to now is read by the caller. */
export const ConversationReadSchema = Type.Object(
  {
    unreadCount: Type.Integer({ minimum: 0 }),
    unreadTotal: Type.Integer({ minimum: 0 }),
  },
  { title: 'ConversationRead' },
)
export type ConversationRead = Static<typeof ConversationReadSchema>

/**
 * POST /api/conversations/:id/messages/:messageId/report (the post reasons). `type` is typed
 * a string, as in the reports service's bodies: a missing or unknown reason is the service's
 * 400 "Please select a reason for reporting", not a schema error.
 */
export const ReportMessageBodySchema = Type.Object(
  {
    type: Type.Optional(
      Type.String({
        description:
          'scam, inappropriate or other; anything else: 400 "Please select a reason for reporting"',
        examples: ['scam'],
      }),
    ),
    description: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Optional details, trimmed, at most 1000 characters',
      }),
    ),
  },
  { additionalProperties: false },
)
export type ReportMessageBody = Static<typeof ReportMessageBodySchema>

export const MessageReportedSchema = Type.Object(
  { reportId: Type.String(), message: Type.String() },
  { title: 'MessageReported' },
)
export type MessageReported = Static<typeof MessageReportedSchema>
