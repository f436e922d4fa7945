import { Type, type Static } from '@sinclair/typebox'
import { ReportReasonSchema } from '../marketplace/reports'
import { CatalogPersonViewSchema, CatalogPostViewSchema } from './favorites'

/**
 * The reports service's HTTP contract (docs/favorites-and-reports.md; message reports:
 * docs/conversations.md):
 * request and response schemas of its routes. Bodies and the queue's query declare their
 * fields' types only: the rules whose messages are the product's copy ("Please select a reason
 * for reporting", "Action must be dismiss or take-down") run in the service, not in Ajv.
 */

const ReportTargetTypeSchema = Type.Union([Type.Literal('post'), Type.Literal('person')])
/** What the queue holds: reports filed here (posts, people) and, from the conversations, messages. */
const ModerationTargetTypeSchema = Type.Union([
  Type.Literal('post'),
  Type.Literal('person'),
  Type.Literal('message'),
])
const ReportStatusSchema = Type.Union([Type.Literal('open'), Type.Literal('closed')])
const Timestamp = (description: string) => Type.String({ format: 'date-time', description })

const reasonField = Type.Optional(
  Type.String({
    description:
      'The reason: scam, inappropriate or other (labels "Scam/Fraud", "Inappropriate/Offensive Content", "Other"); anything else: 400 "Please select a reason for reporting"',
    examples: ['scam'],
  }),
)
const descriptionField = Type.Optional(
  Type.Union([Type.String(), Type.Null()], {
    description:
      'Optional details (null or absent: none), trimmed, at most 1000 characters (400 "Description must be at most 1000 characters")',
    examples: ['Asks for a deposit before the job'],
  }),
)

/** POST /api/reports/posts (body postId, type, description). */
export const ReportPostBodySchema = Type.Object(
  {
    postId: Type.Optional(
      Type.String({
        description:
          'The reported post. Unknown or taken down: 404 "Post not found"; one\'s own: 400 "Cannot report yourself"',
      }),
    ),
    type: reasonField,
    description: descriptionField,
  },
  { additionalProperties: false },
)
export type ReportPostBody = Static<typeof ReportPostBodySchema>

/** POST /api/reports/people (body reportedId, type, description). */
export const ReportPersonBodySchema = Type.Object(
  {
    reportedId: Type.Optional(
      Type.String({
        description:
          'The reported person. Oneself: 400 "Cannot report yourself"; unknown: 404 "Person not found"',
      }),
    ),
    type: reasonField,
    description: descriptionField,
  },
  { additionalProperties: false },
)
export type ReportPersonBody = Static<typeof ReportPersonBodySchema>

/** What the reporter gets back: their own report, nothing of its moderation. */
export const SubmittedReportSchema = Type.Object(
  {
    _id: Type.String({ description: 'The report id' }),
    targetType: ReportTargetTypeSchema,
    targetId: Type.String({ description: 'The reported post or person' }),
    type: ReportReasonSchema,
    description: Type.String({ description: 'Trimmed; empty when none was given' }),
    status: ReportStatusSchema,
    createdAt: Timestamp('When it was filed'),
  },
  { title: 'SubmittedReport' },
)
export type SubmittedReport = Static<typeof SubmittedReportSchema>

export const ReportIdParamsSchema = Type.Object({
  reportId: Type.String({ maxLength: 64, description: 'The report id' }),
})
export type ReportIdParams = Static<typeof ReportIdParamsSchema>

/** GET /api/reports?status&page (the moderation queue). */
export const ReportQueueQuerySchema = Type.Object({
  status: Type.Optional(
    Type.String({
      maxLength: 16,
      description:
        'open (the default: oldest first) or closed (most recent first); anything else: 400 "Status must be open or closed"',
      examples: ['open'],
    }),
  ),
  page: Type.Optional(
    Type.String({
      maxLength: 16,
      description: 'A whole number from 1 (the default) to 10000',
      examples: ['1'],
    }),
  ),
})
export type ReportQueueQuery = Static<typeof ReportQueueQuerySchema>

/** PATCH /api/reports/{reportId}. */
export const ResolveReportBodySchema = Type.Object(
  {
    action: Type.Optional(
      Type.String({
        description:
          'dismiss (closes this report) or take-down (closes every open report of the content and takes it offline for good; a message is hidden from both parties and its sender told); anything else: 400 "Action must be dismiss or take-down"',
        examples: ['take-down'],
      }),
    ),
  },
  { additionalProperties: false },
)
export type ResolveReportBody = Static<typeof ResolveReportBodySchema>

const TakenDown = Type.Boolean({ description: 'A moderator took it down' })

/** One message of a reported message's excerpt, as the parties saw it when it was reported. */
export const ExcerptMessageSchema = Type.Object(
  {
    _id: Type.String({ description: 'The message id' }),
    senderName: Type.String({ description: 'Who sent it, by name' }),
    text: Type.String({ description: 'Its text (at most 280 characters of it)' }),
    sentAt: Timestamp('When it was sent'),
    reported: Type.Boolean({ description: 'The reported message itself' }),
  },
  { title: 'ExcerptMessage' },
)
export type ExcerptMessage = Static<typeof ExcerptMessageSchema>

/**
 * A reported message: only what a moderator needs to judge it, the messages
 * around it in its conversation, oldest first, with the senders' names.
 */
export const ReportedMessageViewSchema = Type.Object(
  {
    _id: Type.String({ description: 'The reported message' }),
    conversationId: Type.String(),
    sender: Type.Object(
      { _id: Type.String(), name: Type.String() },
      { description: 'Who sent the reported message' },
    ),
    excerpt: Type.Array(ExcerptMessageSchema, {
      description: 'The conversation around the reported message, oldest first',
    }),
  },
  { title: 'ReportedMessageView' },
)
export type ReportedMessageView = Static<typeof ReportedMessageViewSchema>

/** The reported content as the public sees it (a message: as its parties did); null when it is gone. */
export const ReportedContentSchema = Type.Union([
  Type.Object({ post: CatalogPostViewSchema, takenDown: TakenDown }, { title: 'ReportedPost' }),
  Type.Object(
    { person: CatalogPersonViewSchema, takenDown: TakenDown },
    { title: 'ReportedPerson' },
  ),
  Type.Object(
    { message: ReportedMessageViewSchema, takenDown: TakenDown },
    { title: 'ReportedMessage' },
  ),
  Type.Null(),
])
export type ReportedContent = Static<typeof ReportedContentSchema>

/** A report as the moderation queue shows it (reviewed within 24 hours). */
export const ModerationReportSchema = Type.Object(
  {
    _id: Type.String({ description: 'The report id' }),
    targetType: ModerationTargetTypeSchema,
    targetId: Type.String({ description: 'The reported post, person or message' }),
    type: ReportReasonSchema,
    reasonLabel: Type.String({ examples: ['Scam/Fraud'] }),
    description: Type.String(),
    status: ReportStatusSchema,
    reporter: Type.Object(
      {
        _id: Type.String(),
        name: Type.String({ description: '"Unknown User" when the reporter is not known' }),
      },
      { description: 'Who filed it: an id and a name, nothing else' },
    ),
    target: ReportedContentSchema,
    openReportsOnTarget: Type.Integer({ minimum: 0 }),
    createdAt: Timestamp('When it was filed'),
    ageHours: Type.Integer({ minimum: 0, description: 'Whole hours since it was filed' }),
    reviewDueAt: Timestamp('Filed + the review promise (24 hours)'),
    overdue: Type.Boolean({ description: 'Still open past reviewDueAt' }),
    closedAt: Type.Union([Timestamp('When it was closed'), Type.Null()]),
    closedBy: Type.Union([Type.String(), Type.Null()], {
      description: 'The moderator who closed it; null when its post was deleted',
    }),
    action: Type.Union([
      Type.Literal('dismiss'),
      Type.Literal('take-down'),
      Type.Literal('target-deleted'),
      Type.Null(),
    ]),
  },
  { title: 'ModerationReport' },
)
export type ModerationReport = Static<typeof ModerationReportSchema>

export const ModerationQueueSchema = Type.Object(
  {
    reports: Type.Array(ModerationReportSchema),
    pagination: Type.Object({
      page: Type.Integer({ minimum: 1 }),
      totalPages: Type.Integer({ minimum: 1 }),
      total: Type.Integer({ minimum: 0 }),
    }),
    reviewWithinHours: Type.Integer({ examples: [24] }),
    overdue: Type.Integer({
      minimum: 0,
      description: 'Open reports older than the review promise, on every page',
    }),
  },
  { title: 'ModerationQueue' },
)
export type ModerationQueue = Static<typeof ModerationQueueSchema>
