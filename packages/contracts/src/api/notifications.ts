// The notifications service's HTTP contract: request and response schemas of its routes.
import { Type, type Static } from '@sinclair/typebox'
import { NOTIFICATION_PAGE_SIZE } from '../marketplace/feed'
import { SUPPORT_MESSAGE_MAX_LENGTH } from '../marketplace/limits'
import { Messages } from '../validation/messages'

/**
 * Page and limit stay strings here: the route reads them with service-kit's integerParam,
 * whose 400 names the allowed range ("limit must be a whole number from 1 to 50").
 */
export const NotificationsPageQuerySchema = Type.Object({
  page: Type.Optional(
    Type.String({ maxLength: 16, description: 'Page number, from 1 (default 1)', examples: ['1'] }),
  ),
  limit: Type.Optional(
    Type.String({
      maxLength: 16,
      description: `Notifications per page, 1 to 50 (default ${NOTIFICATION_PAGE_SIZE})`,
      examples: [String(NOTIFICATION_PAGE_SIZE)],
    }),
  ),
})
export type NotificationsPageQuery = Static<typeof NotificationsPageQuerySchema>

export const NotificationIdParamsSchema = Type.Object({
  id: Type.String({
    maxLength: 200,
    description:
      "The notification's _id as the list gave it (its event's id and the recipient's); another user's answers 404",
  }),
})
export type NotificationIdParams = Static<typeof NotificationIdParamsSchema>

/**
 * The three kinds of the notification preferences, each switched by its own preference,
 * and the two of conversations: a new message while away (switched by messagesEnabled) and a
 * moderator's take-down of one of the user's messages (always told).
 */
export const NotificationKindSchema = Type.Union(
  [
    Type.Literal('post-request'),
    Type.Literal('request-status'),
    Type.Literal('post-favorite'),
    Type.Literal('new-message'),
    Type.Literal('message-taken-down'),
    Type.Literal('post-expiring'),
    Type.Literal('saved-search'),
  ],
  {
    description:
      "post-request, request-status or post-favorite; new-message or message-taken-down; post-expiring (the owner, before a post expires); saved-search (a new post matches one of the user's saved searches)",
  },
)

/** One notification as the dropdown reads it. */
export const NotificationViewSchema = Type.Object(
  {
    _id: Type.String(),
    kind: NotificationKindSchema,
    message: Type.String({
      description: 'A short sentence with names and the post title',
      examples: ['Wanda Worker sent a request for your post "Move a piano"'],
    }),
    link: Type.String({
      description:
        'The page the notification leads to: a settings page, or a conversation (/messages/{id})',
      examples: ['/settings-employer-requests'],
    }),
    isRead: Type.Boolean(),
    status: Type.Union([Type.Literal('unread'), Type.Literal('read')], {
      description: 'Kept with isRead: the web app reads either',
    }),
    createdAt: Type.String({ format: 'date-time', examples: ['2025-05-01T09:30:00.000Z'] }),
    /**
     * Who caused it (the requester, the deciding side, the saver, the sender), when a user
     * did: the web app's "Block" on a notification names them (docs/blocking.md).
     */
    actorId: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
)
export type NotificationView = Static<typeof NotificationViewSchema>

/** The list's own pagination, unlike the feeds'. */
export const NotificationsPaginationSchema = Type.Object(
  {
    current: Type.Integer({ description: 'This page, from 1' }),
    pages: Type.Integer({ description: 'How many pages there are' }),
    total: Type.Integer({ description: 'How many notifications the caller has' }),
  },
  { additionalProperties: false },
)

/** GET /api/notifications: one page, newest first, with the caller's unread count. */
export const NotificationsPageSchema = Type.Object(
  {
    notifications: Type.Array(NotificationViewSchema),
    pagination: NotificationsPaginationSchema,
    unreadCount: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
)
export type NotificationsPage = Static<typeof NotificationsPageSchema>

export const NotificationsUnreadCountSchema = Type.Object(
  { count: Type.Integer({ minimum: 0, description: "The caller's unread notifications" }) },
  { additionalProperties: false },
)
export type NotificationsUnreadCount = Static<typeof NotificationsUnreadCountSchema>

/** After marking one or all read: the unread count that the badge shows from now on. */
export const NotificationsMarkedReadSchema = Type.Object(
  { unreadCount: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
)
export type NotificationsMarkedRead = Static<typeof NotificationsMarkedReadSchema>

export const NotificationsClearedSchema = Type.Object(
  {
    deleted: Type.Integer({ minimum: 0, description: 'How many read notifications were removed' }),
  },
  { additionalProperties: false },
)
export type NotificationsCleared = Static<typeof NotificationsClearedSchema>

const PREFERENCE_DESCRIPTIONS = {
  emailEnabled: 'Email Notifications: each notification is also mailed (default true)',
  mobileEnabled: 'Mobile Notifications (default false)',
  postRequestsEnabled: 'Post Requests: someone requests on your post (default true)',
  postFavoritesEnabled: 'Post Favorites: someone favorites your post (default true)',
  requestStatusEnabled: 'Request Status: your request is accepted or declined (default true)',
  messagesEnabled:
    'Messages: a new message while you are away is noticed and mailed, once per conversation until read (default true)',
} as const

/**
 * The five flags of the notification preferences and the Messages flag of the
 * conversations, all of them, as saved.
 */
export const NotificationPreferencesSchema = Type.Object(
  {
    emailEnabled: Type.Boolean({ description: PREFERENCE_DESCRIPTIONS.emailEnabled }),
    mobileEnabled: Type.Boolean({ description: PREFERENCE_DESCRIPTIONS.mobileEnabled }),
    postRequestsEnabled: Type.Boolean({ description: PREFERENCE_DESCRIPTIONS.postRequestsEnabled }),
    postFavoritesEnabled: Type.Boolean({
      description: PREFERENCE_DESCRIPTIONS.postFavoritesEnabled,
    }),
    requestStatusEnabled: Type.Boolean({
      description: PREFERENCE_DESCRIPTIONS.requestStatusEnabled,
    }),
    messagesEnabled: Type.Boolean({ description: PREFERENCE_DESCRIPTIONS.messagesEnabled }),
  },
  { additionalProperties: false },
)
export type NotificationPreferencesView = Static<typeof NotificationPreferencesSchema>

/**
 * A flag listed by value rather than `type: boolean`: Fastify's Ajv coerces body types, which
 * would save `null`, 0 or "false" as false; listed values are never coerced, so anything but
 * true or false reaches the route, which refuses it with the flag's own message.
 */
const preferenceFlag = (flag: keyof typeof PREFERENCE_DESCRIPTIONS) =>
  Type.Optional(
    Type.Unsafe<boolean>({
      enum: [true, false],
      description: `${PREFERENCE_DESCRIPTIONS[flag]}; anything but true or false answers 400 "${Messages.notificationPreferences.invalid(flag)}"`,
    }),
  )

/**
 * PUT /api/notifications/preferences: the screen sends all six flags; a client may send only
 * what changed, and the others keep their value.
 */
export const NotificationPreferencesChangeSchema = Type.Object(
  {
    emailEnabled: preferenceFlag('emailEnabled'),
    mobileEnabled: preferenceFlag('mobileEnabled'),
    postRequestsEnabled: preferenceFlag('postRequestsEnabled'),
    postFavoritesEnabled: preferenceFlag('postFavoritesEnabled'),
    requestStatusEnabled: preferenceFlag('requestStatusEnabled'),
    messagesEnabled: preferenceFlag('messagesEnabled'),
  },
  { additionalProperties: false },
)
export type NotificationPreferencesChange = Static<typeof NotificationPreferencesChangeSchema>

/**
 * POST /api/email/send-email. Both optional in the schema: a missing
 * field gets the product's message from the route, not the validator's.
 */
export const SupportMessageRequestSchema = Type.Object(
  {
    email: Type.Optional(
      Type.String({
        description: `The address support answers to; else 400 "${Messages.support.invalidEmail}"`,
        examples: ['ava.turner@example.com'],
      }),
    ),
    message: Type.Optional(
      Type.String({
        description: `Required, at most ${SUPPORT_MESSAGE_MAX_LENGTH} characters once trimmed; else 400 "${Messages.support.messageRequired}"`,
        examples: ['I cannot upload a picture to my post.'],
      }),
    ),
  },
  { additionalProperties: false },
)
export type SupportMessageRequest = Static<typeof SupportMessageRequestSchema>

export const SupportMessageSentSchema = Type.Object(
  { message: Type.String({ examples: [Messages.support.sent] }) },
  { additionalProperties: false },
)
export type SupportMessageSent = Static<typeof SupportMessageSentSchema>
