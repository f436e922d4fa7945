import { Type, type Static, type TSchema } from '@sinclair/typebox'
import type { EventEnvelope } from './envelope'
import { OfferAmountSchema, OfferUnitSchema } from '../marketplace/offers'

/**
 * One Kafka topic per aggregate stream, so every event of one aggregate (keyed by its id)
 * lands on one partition in order: user.registered before user.verified, and so on.
 */
export const Topics = {
  authUsers: 'auth.users',
  peopleUsers: 'people.users',
  jobsPosts: 'jobs.posts',
  jobsRequests: 'jobs.requests',
  peopleRequests: 'people.requests',
  favorites: 'favorites.favorites',
  reports: 'reports.reports',
  notifications: 'notifications.notifications',
  conversations: 'conversations.conversations',
} as const
export type Topic = (typeof Topics)[keyof typeof Topics]

export interface EventDefinition<TType extends string, TSchemaT extends TSchema> {
  type: TType
  version: number
  topic: Topic
  schema: TSchemaT
}

function defineEvent<TType extends string, TSchemaT extends TSchema>(
  type: TType,
  version: number,
  topic: Topic,
  schema: TSchemaT,
): EventDefinition<TType, TSchemaT> {
  return { type, version, topic, schema }
}

const UserNames = {
  firstName: Type.String(),
  lastName: Type.String(),
}

function RequestStatusSchema() {
  return Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('rejected')])
}

function PublicPostSchema() {
  const NullableText = Type.Union([Type.String(), Type.Null()])
  return Type.Object({
    postId: Type.String(),
    ownerId: Type.String(),
    title: Type.String(),
    location: NullableText,
    jobStartEnd: Type.String(),
    salary: Type.String(),
    paymentType: Type.Array(Type.String()),
    contact: NullableText,
    infos: Type.String(),
    displayLocation: Type.Boolean(),
    displayContact: Type.Boolean(),
    jobPicture: NullableText,
    category: Type.String(),
    isOnline: Type.Boolean(),
    /** A moderator took the post down (report.resolved): gone for everyone but its owner. */
    takenDown: Type.Optional(Type.Boolean()),
    expirationDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    /**
     * Where the post is, for "within N miles" (docs/distance.md): absent when its location is
     * not a known place. The post's own point when the location is shown, its town's point
     * (`town: true`) when the location is private until acceptance.
     */
    point: Type.Optional(
      Type.Object({
        lat: Type.Number(),
        lon: Type.Number(),
        town: Type.Optional(Type.Literal(true)),
      }),
    ),
  })
}

/**
 * `ownerId` asked `workerId` to do post `postId` (people requests), with the names and the
 * post title the notifications show.
 */
function PeopleRequestSchema() {
  return Type.Object({
    requestId: Type.String(),
    postId: Type.String(),
    postTitle: Type.String(),
    ownerId: Type.String(),
    ownerName: Type.String(),
    workerId: Type.String(),
    workerName: Type.String(),
    status: RequestStatusSchema(),
  })
}

function TargetTypeSchema() {
  return Type.Union([Type.Literal('post'), Type.Literal('person')])
}

/** What a moderator can act on: posts and people, and single messages of the conversations. */
function ModerationTargetTypeSchema() {
  return Type.Union([Type.Literal('post'), Type.Literal('person'), Type.Literal('message')])
}

function ConversationRequestKindSchema() {
  return Type.Union([Type.Literal('post-request'), Type.Literal('person-request')])
}

function FavoriteSchema() {
  return Type.Object({
    favoriteId: Type.String(),
    userId: Type.String(),
    userName: Type.String(),
    targetType: TargetTypeSchema(),
    targetId: Type.String(),
    targetOwnerId: Type.String(),
    /** The post's title or the person's full name. */
    targetTitle: Type.String(),
  })
}

function JobRequestSchema() {
  return Type.Object({
    requestId: Type.String(),
    postId: Type.String(),
    postTitle: Type.String(),
    ownerId: Type.String(),
    requesterId: Type.String(),
    requesterName: Type.String(),
    status: RequestStatusSchema(),
  })
}

/** An offer's terms in events: the amount, its unit, the note and proposed time. */
function OfferTermsSchema() {
  return Type.Object({
    amount: Type.Number(),
    unit: OfferUnitSchema,
    note: Type.String(),
    proposedTime: Type.String(),
  })
}

/**
 * The registry of every domain event: its name, schema version and topic. A producer
 * builds envelopes only from these definitions and a consumer validates `data` against
 * them, so a change of shape is a new version here, never a silent drift.
 */
export const Events = {
  userRegistered: defineEvent(
    'user.registered',
    1,
    Topics.authUsers,
    Type.Object({
      userId: Type.String(),
      email: Type.String(),
      ...UserNames,
      phoneNumber: Type.String(),
      dateOfBirth: Type.String({ format: 'date' }),
      interest: Type.Union([
        Type.Literal('Posts'),
        Type.Literal('People'),
        Type.Literal('Both'),
        Type.Null(),
      ]),
      emailPreferences: Type.Boolean(),
    }),
  ),
  userVerified: defineEvent(
    'user.verified',
    1,
    Topics.authUsers,
    Type.Object({ userId: Type.String() }),
  ),
  /**
   * Every access token of the user issued before `validAfter` is void (logout, password change
   * or reset, two-step sign-in turned on or off, account deletion). Each service keeps the latest instant and its auth check
   * refuses older tokens, so a stolen token dies with the session it came from.
   */
  userTokensRevoked: defineEvent(
    'user.tokens-revoked',
    1,
    Topics.authUsers,
    Type.Object({
      userId: Type.String(),
      validAfter: Type.String({ format: 'date-time' }),
      reason: Type.Union([
        Type.Literal('password-changed'),
        Type.Literal('password-reset'),
        Type.Literal('deletion-requested'),
        Type.Literal('deleted'),
        // Logout, and two-step sign-in turned on or off, void the tokens issued before them.
        Type.Literal('logged-out'),
        Type.Literal('two-step-changed'),
      ]),
    }),
  ),
  /** Names and phone changed in the account settings (people service owns them). */
  userProfileUpdated: defineEvent(
    'user.profile-updated',
    1,
    Topics.peopleUsers,
    Type.Object({
      userId: Type.String(),
      ...UserNames,
      phoneNumber: Type.String(),
    }),
  ),
  /** The worker profile was created, changed or switched off (people service). */
  workerProfileUpdated: defineEvent(
    'worker-profile.updated',
    1,
    Topics.peopleUsers,
    Type.Object({
      userId: Type.String(),
      isWorker: Type.Boolean(),
      /** Public worker fields other services show beside a request (absent before v1 producers set them). */
      title: Type.Optional(Type.String()),
      skills: Type.Optional(Type.Array(Type.String())),
      profilePicture: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      /** Whether the worker is listed in the people feed (the Online/Offline switch). */
      isOnline: Type.Optional(Type.Boolean()),
      /**
       * The rest of the public worker view, so read models (favorites) can show the worker as
       * the people feed does: only public contacts ever travel.
       */
      availability: Type.Optional(Type.String()),
      paymentType: Type.Optional(Type.String()),
      location: Type.Optional(Type.String()),
      infos: Type.Optional(Type.String()),
      publicContacts: Type.Optional(Type.Array(Type.String())),
      category: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      /** A moderator hid the worker profile (report.resolved take-down). */
      takenDown: Type.Optional(Type.Boolean()),
    }),
  ),
  /**
   * Who may see a worker's hidden contacts changed (a post owner's request on the worker was
   * made or withdrawn). Only the worker travels, never who the viewers are: every people
   * instance re-reads the profile, so its feed shows the contacts to the right owners at once.
   */
  workerContactViewersChanged: defineEvent(
    'worker.contact-viewers-changed',
    1,
    Topics.peopleUsers,
    Type.Object({ workerId: Type.String() }),
  ),
  /** The user asked to delete the account: the 30-day grace period starts. */
  userDeletionRequested: defineEvent(
    'user.deletion-requested',
    1,
    Topics.peopleUsers,
    Type.Object({
      userId: Type.String(),
      requestedAt: Type.String({ format: 'date-time' }),
      purgeAfter: Type.String({ format: 'date-time' }),
    }),
  ),
  /**
   * "Keep my account" during the grace period. Emitted by auth, which alone can check the
   * password of an account that can no longer log in (docs/people.md, account deletion).
   */
  userDeletionCancelled: defineEvent(
    'user.deletion-cancelled',
    1,
    Topics.authUsers,
    Type.Object({ userId: Type.String() }),
  ),
  /**
   * A post owner rated the worker of an accepted request on their post (people service,
   * docs/ratings-and-stats.md), or changed that rating within 14 days (`previousStars` is
   * then the earlier value). Keyed by the worker, on the worker's stream: the event rides in
   * the worker profile's outbox, written with the new sum and count. The comment stays in
   * the people service.
   */
  workerRated: defineEvent(
    'worker.rated',
    1,
    Topics.peopleUsers,
    Type.Object({
      ratingId: Type.String(),
      requestId: Type.String(),
      postId: Type.String(),
      postTitle: Type.String(),
      workerId: Type.String(),
      ownerId: Type.String(),
      stars: Type.Integer({ minimum: 1, maximum: 5 }),
      previousStars: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()]),
    }),
  ),
  /**
   * `blockerId` blocked `blockedId` (people service, docs/blocking.md). Keyed by the blocker,
   * on the blocker's stream, so one user's blocks and unblocks of someone stay in order.
   * Every service that serves one user's content to another keeps the pair in its read model
   * and hides each from the other, both ways. The blocked person is never told.
   */
  userBlocked: defineEvent(
    'user.blocked',
    1,
    Topics.peopleUsers,
    Type.Object({ blockerId: Type.String(), blockedId: Type.String() }),
  ),
  /** The block is lifted: each sees the other again (unless the other blocked them too). */
  userUnblocked: defineEvent(
    'user.unblocked',
    1,
    Topics.peopleUsers,
    Type.Object({ blockerId: Type.String(), blockedId: Type.String() }),
  ),
  /** The grace period ended: every service deletes or anonymises the user's data. */
  userDeleted: defineEvent(
    'user.deleted',
    1,
    Topics.peopleUsers,
    Type.Object({ userId: Type.String() }),
  ),
  /**
   * A post was published, changed (including the online toggle) or removed (jobs service).
   * Carries only what anyone may see: location and contact are null when the owner hid them,
   * and authorizedUsers never leaves the jobs service.
   */
  postCreated: defineEvent('post.created', 1, Topics.jobsPosts, PublicPostSchema()),
  postUpdated: defineEvent('post.updated', 1, Topics.jobsPosts, PublicPostSchema()),
  postDeleted: defineEvent(
    'post.deleted',
    1,
    Topics.jobsPosts,
    Type.Object({ postId: Type.String(), ownerId: Type.String(), title: Type.String() }),
  ),
  /**
   * The owner's warning: the post leaves the feed after `expirationDate` (its last day, UTC),
   * within the warning's days (jobs service's expiry sweep, once per post and expiry date).
   */
  postExpiring: defineEvent(
    'post.expiring',
    1,
    Topics.jobsPosts,
    Type.Object({
      postId: Type.String(),
      ownerId: Type.String(),
      title: Type.String(),
      expirationDate: Type.String(),
    }),
  ),
  /**
   * A post stopped taking requests for good: its owner marked it filled, or it expired (jobs
   * service, once per closing). `pendingRequesterIds` are the requesters whose request on it
   * was still pending then: each is told.
   */
  postClosed: defineEvent(
    'post.closed',
    1,
    Topics.jobsPosts,
    Type.Object({
      postId: Type.String(),
      ownerId: Type.String(),
      title: Type.String(),
      reason: Type.Union([Type.Literal('filled'), Type.Literal('expired')]),
      pendingRequesterIds: Type.Array(Type.String()),
    }),
  ),
  /** Requests on posts (jobs service): enough for a notification without a lookup. */
  jobRequestCreated: defineEvent(
    'job-request.created',
    1,
    Topics.jobsRequests,
    Type.Composite([
      JobRequestSchema(),
      // Only the two sides are told (docs/post-requests.md, "Offers").
      Type.Object({ offer: Type.Optional(OfferTermsSchema()) }),
    ]),
  ),
  jobRequestDecided: defineEvent(
    'job-request.decided',
    1,
    Topics.jobsRequests,
    Type.Composite([
      JobRequestSchema(),
      // Accepted with an offer: the amount both sides agreed on.
      Type.Object({ agreed: Type.Optional(OfferAmountSchema) }),
    ]),
  ),
  /** The post's owner made their one counter-offer on a request (jobs service). */
  jobRequestCountered: defineEvent(
    'job-request.countered',
    1,
    Topics.jobsRequests,
    Type.Composite([JobRequestSchema(), Type.Object({ counter: OfferTermsSchema() })]),
  ),
  /** The worker accepted (it became the request's offer) or declined the counter-offer. */
  jobRequestCounterAnswered: defineEvent(
    'job-request.counter-answered',
    1,
    Topics.jobsRequests,
    Type.Composite([
      JobRequestSchema(),
      Type.Object({
        answer: Type.Union([Type.Literal('accepted'), Type.Literal('declined')]),
        counter: OfferTermsSchema(),
      }),
    ]),
  ),
  jobRequestDeleted: defineEvent(
    'job-request.deleted',
    1,
    Topics.jobsRequests,
    Type.Composite([
      JobRequestSchema(),
      Type.Object({ deletedBy: Type.Union([Type.Literal('owner'), Type.Literal('requester')]) }),
    ]),
  ),
  /** A post owner asked a worker to do one of their posts (people service). */
  peopleRequestCreated: defineEvent(
    'people-request.created',
    1,
    Topics.peopleRequests,
    PeopleRequestSchema(),
  ),
  /**
   * A person asked for a post answered (people service). `ownerId` asked `workerId` to do
   * post `postId`; when accepted the worker may see the post's hidden location and contact.
   */
  peopleRequestDecided: defineEvent(
    'people-request.decided',
    1,
    Topics.peopleRequests,
    PeopleRequestSchema(),
  ),
  /** A people request was withdrawn or deleted: any access it gave is taken back. */
  peopleRequestDeleted: defineEvent(
    'people-request.deleted',
    1,
    Topics.peopleRequests,
    PeopleRequestSchema(),
  ),
  /**
   * A user saved a post or a person (favorites service). `targetOwnerId` is the post's owner
   * or the person; names and title let a notification read at a glance without a lookup.
   */
  favoriteAdded: defineEvent('favorite.added', 1, Topics.favorites, FavoriteSchema()),
  favoriteRemoved: defineEvent('favorite.removed', 1, Topics.favorites, FavoriteSchema()),
  /** A user reported a post or a person (reports service): the moderation queue grows. */
  reportCreated: defineEvent(
    'report.created',
    1,
    Topics.reports,
    Type.Object({
      reportId: Type.String(),
      reporterId: Type.String(),
      targetType: TargetTypeSchema(),
      targetId: Type.String(),
      targetOwnerId: Type.String(),
      reason: Type.String(),
      createdAt: Type.String({ format: 'date-time' }),
    }),
  ),
  /**
   * A notification was stored for `userId` (notifications service). Every notifications
   * instance reads it with a group of its own and pushes it to the user's sockets it holds;
   * one group also mails it when the user wants e-mails.
   */
  notificationCreated: defineEvent(
    'notification.created',
    1,
    Topics.notifications,
    Type.Object({
      notificationId: Type.String(),
      userId: Type.String(),
      kind: Type.Union([
        Type.Literal('post-request'),
        Type.Literal('request-status'),
        Type.Literal('post-favorite'),
        /** Once per conversation until read, for a recipient with no open socket. */
        Type.Literal('new-message'),
        /** A moderator took one of the user's messages down. */
        Type.Literal('message-taken-down'),
        /** The user's post expires within three days (with its relist link). */
        Type.Literal('post-expiring'),
        /** A new or relisted post matches one of the user's saved searches. */
        Type.Literal('saved-search'),
      ]),
      message: Type.String(),
      /** A path in the web app where the notification leads (/settings-...). */
      link: Type.String(),
      createdAt: Type.String({ format: 'date-time' }),
      /** The user's unread count with this one, for the live push's badge (no count per push). */
      unreadCount: Type.Optional(Type.Integer({ minimum: 0 })),
      /** A `saved-search` notice's saved search: its e-mail follows that search's choice. */
      savedSearchId: Type.Optional(Type.String()),
    }),
  ),
  /** A moderator closed a report (reports service); `take-down` removes the target. */
  reportResolved: defineEvent(
    'report.resolved',
    1,
    Topics.reports,
    Type.Object({
      reportId: Type.String(),
      targetType: ModerationTargetTypeSchema(),
      targetId: Type.String(),
      action: Type.Union([Type.Literal('take-down'), Type.Literal('dismiss')]),
    }),
  ),
  /**
   * A request opened its conversation (conversations service). Keyed by the conversation, as
   * every event of the conversations topic, so one conversation's events stay in order.
   */
  conversationOpened: defineEvent(
    'conversation.opened',
    1,
    Topics.conversations,
    Type.Object({
      conversationId: Type.String(),
      requestKind: ConversationRequestKindSchema(),
      requestId: Type.String(),
      postId: Type.String(),
      postTitle: Type.String(),
      requesterId: Type.String(),
      /** The post owner (post requests) or the requested worker (person requests). */
      otherId: Type.String(),
      openedAt: Type.String({ format: 'date-time' }),
    }),
  ),
  /**
   * A message was stored. Every notifications instance reads it with a group of its own and
   * pushes it to the recipient's and the sender's sockets it holds; one shared group tells a
   * recipient with no open socket. The text travels so the push needs no lookup: the topic
   * is internal, and only the two parties' sockets get it.
   */
  messageSent: defineEvent(
    'message.sent',
    1,
    Topics.conversations,
    Type.Object({
      messageId: Type.String(),
      conversationId: Type.String(),
      clientId: Type.Union([Type.String(), Type.Null()]),
      senderId: Type.String(),
      senderName: Type.String(),
      recipientId: Type.String(),
      postTitle: Type.String(),
      text: Type.String(),
      sentAt: Type.String({ format: 'date-time' }),
      /** The recipient's unread counts with this message, for the badges (no count per push). */
      recipientUnreadCount: Type.Integer({ minimum: 0 }),
      recipientUnreadTotal: Type.Integer({ minimum: 0 }),
    }),
  ),
  /** `readerId` read the conversation up to `readAt`: the sender's "Seen", the badges. */
  messageRead: defineEvent(
    'message.read',
    1,
    Topics.conversations,
    Type.Object({
      conversationId: Type.String(),
      readerId: Type.String(),
      /** The other party, whose messages are now seen. */
      otherId: Type.String(),
      readAt: Type.String({ format: 'date-time' }),
      readerUnreadTotal: Type.Integer({ minimum: 0 }),
    }),
  ),
  /**
   * A participant reported a message (conversations service): the moderation queue (reports
   * service) shows it with a short excerpt of the conversation around it.
   */
  messageReported: defineEvent(
    'message.reported',
    1,
    Topics.conversations,
    Type.Object({
      reportId: Type.String(),
      messageId: Type.String(),
      conversationId: Type.String(),
      reporterId: Type.String(),
      senderId: Type.String(),
      reason: Type.String(),
      description: Type.Union([Type.String(), Type.Null()]),
      excerpt: Type.Array(
        Type.Object({
          messageId: Type.String(),
          senderName: Type.String(),
          text: Type.String(),
          sentAt: Type.String({ format: 'date-time' }),
        }),
      ),
      createdAt: Type.String({ format: 'date-time' }),
    }),
  ),
  /** A moderator took a message down: hidden for both parties; the sender is told. */
  messageTakenDown: defineEvent(
    'message.taken-down',
    1,
    Topics.conversations,
    Type.Object({
      messageId: Type.String(),
      conversationId: Type.String(),
      senderId: Type.String(),
      recipientId: Type.String(),
      postTitle: Type.String(),
    }),
  ),
} as const

export type EventName = (typeof Events)[keyof typeof Events]['type']
type DefinitionOf<N extends EventName> = Extract<(typeof Events)[keyof typeof Events], { type: N }>
export type EventData<N extends EventName> = Static<DefinitionOf<N>['schema']>
export type DomainEvent<N extends EventName = EventName> = EventEnvelope<N, EventData<N>>

export function eventDefinition<N extends EventName>(type: N): DefinitionOf<N> {
  const found = Object.values(Events).find((definition) => definition.type === type)
  if (!found) throw new Error(`Unknown event type "${type}"`)
  return found as DefinitionOf<N>
}

export const allTopics: Topic[] = Object.values(Topics)
