import { Type, type Static } from '@sinclair/typebox'
import { RequestActivityDaySchema } from './common'
import { ALL_FILTER, FEED_PAGE_SIZE, MAX_PAGE_SIZE, SEARCH_RESULT_LIMIT } from '../marketplace/feed'
import {
  POST_CONTACT_MAX_LENGTH,
  POST_INFOS_MAX_LENGTH,
  POST_LOCATION_MAX_LENGTH,
  POST_SALARY_MAX_LENGTH,
  POST_TITLE_MAX_LENGTH,
  POST_WHEN_MAX_LENGTH,
} from '../marketplace/limits'
import { POST_CATEGORIES } from '../marketplace/categories'
import { POST_STATES, type PostState } from '../marketplace/post-life'
import { literalUnion } from '../marketplace/literal-union'
import { RequestStatusSchema } from '../marketplace/requests'
import { CounterStateSchema, OfferAmountSchema } from '../marketplace/offers'

/**
 * The jobs service's HTTP contract (/api/jobs/*): posts, the posts feed and search,
 * categories, requests on posts and the user's stats.
 *
 * Response objects are closed: the service serializes them with these schemas, so a field
 * that is not listed here never leaves it, whatever a view returns. Body fields are typed
 * but carry no length, pattern or enum constraints: the rules run in the service
 * (`@marketplace/contracts/validation`), whose messages are the product's copy.
 */

const closed = { additionalProperties: false } as const

const OBJECT_ID_EXAMPLE = '665f1c2e9b1e8a0012345678'
const OWNER_ID_EXAMPLE = '665f1c2e9b1e8a00aaaaaaaa'

const nullableString = (options: { description: string; examples?: unknown[]; format?: string }) =>
  Type.Union([Type.String(options.format ? { format: options.format } : {}), Type.Null()], {
    description: options.description,
    ...(options.examples ? { examples: options.examples } : {}),
  })

// ---------------------------------------------------------------------------------------
// A post, as every route and the feed answer it
// ---------------------------------------------------------------------------------------

/**
 * How to reach the poster by the contact method, private like the location: the owner and
 * authorized users always get it; anyone else only when displayContact is true (otherwise
 * the method is null too). Optional in the type only so that answers of other services
 * (favorites, reports: the guest view of post events, which never carry the value) fit; the
 * jobs service always sends it.
 */
const contactValueFields = {
  contactValue: Type.Optional(
    nullableString({
      description:
        'An e-mail address, the 10 digits of a phone number, a handle without its @, or text (Others). null when hidden from this viewer or when the post has none (the poster shares it in the conversation)',
      examples: ['5551234567'],
    }),
  ),
}

/**
 * The distance from the place a feed or search was asked `near`: only then, and only for a post
 * whose location the gazetteer knows (docs/distance.md).
 */
export const distanceFields = {
  distanceMiles: Type.Optional(
    Type.Number({
      minimum: 0,
      description:
        'Miles from the place asked about (near), when the post has a known location. For a viewer who may not see the location, measured from its town and rounded (distanceRounded)',
      examples: [3.2],
    }),
  ),
  distanceRounded: Type.Optional(
    Type.Literal(true, {
      description:
        "The location is private to this viewer: the distance is from the post's town, rounded (whole miles to 10, then steps of 5 and 10)",
    }),
  ),
}

export const JobPostSchema = Type.Object(
  {
    _id: Type.String({ description: 'The post id', examples: [OBJECT_ID_EXAMPLE] }),
    jobID: Type.String({
      description: 'The post id again',
      examples: [OBJECT_ID_EXAMPLE],
    }),
    userID: Type.String({ description: "The owner's user id", examples: [OWNER_ID_EXAMPLE] }),
    title: Type.String({ examples: ['Help moving a piano'] }),
    location: nullableString({
      description:
        'null when the owner hid it (displayLocation false) and the viewer is neither the owner nor authorized',
      examples: ['Boston MA'],
    }),
    jobStartEnd: Type.String({ description: 'When, free text', examples: ['Saturday morning'] }),
    salary: Type.String({ description: 'How much, free text', examples: ['$80'] }),
    paymentType: Type.Array(Type.String(), { examples: [['Cash', 'Zelle']] }),
    contact: nullableString({
      description:
        'The contact method, an option of the contact list or empty; null when the owner hid the contact (displayContact false) and the viewer is neither the owner nor authorized',
      examples: ['WhatsApp'],
    }),
    ...contactValueFields,
    infos: Type.String({ examples: ['Third floor, no elevator'] }),
    displayLocation: Type.Boolean({
      description: 'false: the location is shown only after acceptance',
    }),
    displayContact: Type.Boolean({
      description:
        'false: the contact (method and value) is shown only to the owner and after acceptance',
    }),
    jobPicture: nullableString({
      description: 'Object key of the uploaded picture (jobImages/{userID}/...), or null',
      examples: [`jobImages/${OWNER_ID_EXAMPLE}/0b7f6c1e-1111-4222-8333-944455556666.png`],
    }),
    category: Type.String({
      description:
        "One of the feed's categories: the one the owner chose, or the guess from the words when none was chosen",
      examples: ['Moving'],
    }),
    isOnline: Type.Boolean({ description: 'Switched on by the owner (My posts)' }),
    expirationDate: nullableString({
      description: 'The last day the post is live (YYYY-MM-DD), or null',
      examples: ['2026-12-31'],
    }),
    authorizedUsers: Type.Array(Type.String(), {
      description:
        'The whole list for the owner; [the viewer] for an authorized viewer; [] for anyone else',
    }),
    takenDown: Type.Optional(
      Type.Literal(true, {
        description: 'Sent to the owner only: a moderator took the post down; it stays offline',
      }),
    ),
    state: Type.Optional(
      Type.Unsafe<PostState>(
        Type.Union(
          POST_STATES.map((state) => Type.Literal(state)),
          {
            description:
              'Sent to the owner only: live, expiring-soon (live, within three days of its end), offline, expired or filled (docs/posts.md)',
          },
        ),
      ),
    ),
    filledAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Sent to the owner only, once the post is marked filled',
      }),
    ),
    relistableAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'Sent to the owner only, after a relist: the post can be relisted again from this instant',
      }),
    ),
    createdAt: Type.String({
      format: 'date-time',
      description: 'When the post was published, or last relisted (a relisted post is new again)',
    }),
    updatedAt: Type.String({ format: 'date-time' }),
    ...distanceFields,
  },
  { ...closed, title: 'JobPost', description: 'A post, as the viewer may see it' },
)
export type JobPost = Static<typeof JobPostSchema>

export const JobPostListSchema = Type.Array(JobPostSchema, {
  description: "The caller's own posts, newest first, with the owner's view",
})
export type JobPostList = Static<typeof JobPostListSchema>

// ---------------------------------------------------------------------------------------
// The feed, search and categories
// ---------------------------------------------------------------------------------------

const filter = (description: string, examples: string[]) =>
  Type.Optional(
    Type.String({
      maxLength: 100,
      description: `${description}; "${ALL_FILTER}" or empty means no filter`,
      examples,
    }),
  )

/** "Within N miles of <place>" on a feed or search (docs/distance.md). */
export const nearQueryFields = {
  near: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'Only posts within `within` miles of this place, each with its distanceMiles: a town ("Austin, TX", "Lyon, FR") or a US ZIP code. A place not known gives 400 UNKNOWN_PLACE',
      examples: ['Austin, TX'],
    }),
  ),
  within: Type.Optional(
    Type.String({
      maxLength: 10,
      description: 'Miles from near: 5, 10, 25 or 50 (default 50); needs near',
      examples: ['25'],
    }),
  ),
}

export const JobsFeedQuerySchema = Type.Object({
  category: filter('Only posts of this category', ['Moving']),
  location: filter('Only posts at this location (hidden locations never match)', ['Boston MA']),
  payment: filter('Only posts that take this payment option', ['Zelle']),
  contact: filter('Only posts with this contact option', ['Phone']),
  page: Type.Optional(
    Type.String({ maxLength: 10, description: 'Page number from 1 (default 1)', examples: ['1'] }),
  ),
  limit: Type.Optional(
    Type.String({
      maxLength: 10,
      description: `Posts per page (default ${FEED_PAGE_SIZE}) or search results (default ${SEARCH_RESULT_LIMIT}), 1 to ${MAX_PAGE_SIZE}`,
      examples: ['12'],
    }),
  ),
  sort: Type.Optional(
    Type.String({
      maxLength: 10,
      description:
        'desc (Recent, the default) or asc (Oldest); distance (nearest first, with near; not with after)',
      examples: ['desc'],
    }),
  ),
  search: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Words of title and infos, by prefix, in any case; with it, the answer is the newest matches and no pagination',
      examples: ['moving'],
    }),
  ),
  after: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        "Cursor paging, an addition to page: empty for the first page, then the previous answer's pagination.nextCursor; each page starts right after the last post of the one before, so pages never overlap nor skip while posts come and go, on any instance (page is then not read). Without it the answer has no nextCursor",
    }),
  ),
  ...nearQueryFields,
})
export type JobsFeedQuery = Static<typeof JobsFeedQuerySchema>

export const JobsPaginationSchema = Type.Object(
  {
    page: Type.Integer({ minimum: 1 }),
    totalPages: Type.Integer({ minimum: 1 }),
    total: Type.Integer({ minimum: 0, description: 'Live posts that match the filters' }),
    limit: Type.Integer({ minimum: 1 }),
    nextCursor: Type.Optional(
      Type.String({
        description:
          'With after (cursor paging): the next page is after=<nextCursor>; absent on the last page',
      }),
    ),
  },
  closed,
)
export type JobsPagination = Static<typeof JobsPaginationSchema>

export const JobsFeedAnswerSchema = Type.Object(
  {
    jobs: Type.Array(JobPostSchema),
    pagination: Type.Optional(JobsPaginationSchema),
  },
  {
    ...closed,
    description: 'A page of live posts with its pagination, or the search results (no pagination)',
  },
)
export type JobsFeedAnswer = Static<typeof JobsFeedAnswerSchema>

export const JobCategoriesQuerySchema = Type.Object({
  includeEmpty: Type.Optional(
    Type.String({
      description: 'true or false (default): list categories without posts',
      examples: ['false'],
    }),
  ),
  includeUncategorized: Type.Optional(
    Type.String({ description: 'true (default) or false: list Uncategorized', examples: ['true'] }),
  ),
})
export type JobCategoriesQuery = Static<typeof JobCategoriesQuerySchema>

export const JobCategoriesSchema = Type.Object(
  {
    categories: Type.Array(Type.String(), { examples: [['Moving', 'Cleaning', 'Uncategorized']] }),
    metadata: Type.Object(
      {
        totalJobs: Type.Integer({ minimum: 0, description: 'Live posts in the feed' }),
        counts: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
          description: 'Live posts per listed category',
          examples: [{ Moving: 12, Cleaning: 4, Uncategorized: 2 }],
        }),
      },
      closed,
    ),
  },
  { ...closed, description: 'The category list: names, and their counts in metadata' },
)
export type JobCategories = Static<typeof JobCategoriesSchema>

// ---------------------------------------------------------------------------------------
// Bodies of POST /api/jobs and PUT /api/jobs/{id}
// ---------------------------------------------------------------------------------------

const limited = (rule: string, max: number) => `${rule}; at most ${max} characters`

/** "true"/"false" are read as booleans too; anything else is refused. */
const flag = (description: string) =>
  Type.Optional(
    Type.Union([Type.String(), Type.Boolean()], {
      description: `${description}: true or false (the strings "true" and "false" too)`,
    }),
  )

/** A list, or the modify form's "Cash - Zelle" text. */
const paymentOptions = (description: string) =>
  Type.Optional(
    Type.Union([Type.String(), Type.Array(Type.String())], {
      description: `${description}: options of the payment list, as a list or as "Cash - Zelle"`,
      examples: [['Cash', 'Zelle']],
    }),
  )

const postFields = {
  location: Type.Optional(
    Type.String({
      description: limited('Required (here or as where)', POST_LOCATION_MAX_LENGTH),
      examples: ['Boston MA'],
    }),
  ),
  where: Type.Optional(Type.String({ description: "The creation form's name for location" })),
  jobStartEnd: Type.Optional(
    Type.String({
      description: limited('When, free text', POST_WHEN_MAX_LENGTH),
      examples: ['Saturday morning'],
    }),
  ),
  startEnd: Type.Optional(Type.String({ description: 'Another name for jobStartEnd' })),
  when: Type.Optional(Type.String({ description: "The creation form's name for jobStartEnd" })),
  salary: Type.Optional(
    Type.String({
      description: limited('How much, free text', POST_SALARY_MAX_LENGTH),
      examples: ['$80'],
    }),
  ),
  howmuch: Type.Optional(Type.String({ description: "The creation form's name for salary" })),
  paymentType: paymentOptions('Accepted payments'),
  payment: paymentOptions("The creation form's name for paymentType"),
  contact: Type.Optional(
    Type.String({
      description: limited('Empty, or an option of the contact list', POST_CONTACT_MAX_LENGTH),
      examples: ['WhatsApp'],
    }),
  ),
  contactValue: Type.Optional(
    Type.String({
      description:
        'Optional: how to reach you by contact, so an accepted worker can reach you; refused without a contact. When given: an e-mail address (Email); a 10-digit phone number, spaces, dashes, dots and parentheses allowed (Phone, WhatsApp, Telegram); a handle of 2 to 32 letters, digits, _ or ., an @ allowed (Discord, Instagram, X(Twitter)); at most 100 characters (Others)',
      examples: ['(555) 123-4567'],
    }),
  ),
  infos: Type.Optional(
    Type.String({
      description: limited('Free text', POST_INFOS_MAX_LENGTH),
      examples: ['Third floor, no elevator'],
    }),
  ),
  displayLocation: flag('Show the location to everyone (default true)'),
  displayContact: flag('Show the contact (method and value) to everyone (default true)'),
  jobPicture: Type.Optional(
    nullableString({
      description:
        'The object key the upload slot gave, under jobImages/{your id}/; null or empty for none',
    }),
  ),
  expirationDate: Type.Optional(
    nullableString({
      description: 'YYYY-MM-DD, today or later; null or empty for none',
      examples: ['2026-12-31'],
    }),
  ),
  category: Type.Optional(
    Type.String({
      description: `The category the owner chose, one of the feed's categories: ${POST_CATEGORIES.join(', ')} (spelled so; anything else is a 400 naming the list). Absent or empty: on a new post it is guessed from the title, then the infos; on an edit the post keeps its category, except that a category never chosen is guessed again when the infos change`,
      examples: ['Moving'],
    }),
  ),
}

const nullBody = Type.Null({ description: 'No body reads as an empty one' })

export const JobPostCreateBodySchema = Type.Union(
  [
    Type.Object(
      {
        userID: Type.Optional(
          Type.String({ description: "If sent, the caller's own id (403 otherwise)" }),
        ),
        userId: Type.Optional(Type.String({ description: 'Another name for userID' })),
        title: Type.Optional(
          Type.String({
            description: limited('Required', POST_TITLE_MAX_LENGTH),
            examples: ['Help moving a piano'],
          }),
        ),
        ...postFields,
      },
      { ...closed, title: 'JobPostCreate' },
    ),
    nullBody,
  ],
  {
    description:
      'The API names or the creation form names (where, when, howmuch, payment); title and location are required; contactValue is optional and needs a contact',
  },
)
export type JobPostCreateBody = NonNullable<Static<typeof JobPostCreateBodySchema>>

export const JobPostUpdateBodySchema = Type.Union(
  [
    Type.Object(
      {
        title: Type.Optional(Type.String({ description: 'Cannot change; may be sent unchanged' })),
        isOnline: flag('Put the post online or take it offline (a taken-down post stays offline)'),
        ...postFields,
      },
      { ...closed, title: 'JobPostUpdate' },
    ),
    nullBody,
  ],
  {
    description:
      'Any fields but the title, or isOnline alone for the toggle; the result must be a valid post',
  },
)
export type JobPostUpdateBody = NonNullable<Static<typeof JobPostUpdateBodySchema>>

// ---------------------------------------------------------------------------------------
// Requests on posts
// ---------------------------------------------------------------------------------------

/**
 * An offer as a client sends it. Typed loosely on purpose: the service checks it
 * (`checkOffer`, contracts/validation/offer.ts) and answers the product's messages.
 */
const offerAmountInput = Type.Union([Type.Number(), Type.String()], {
  description: 'More than 0, at most two decimals, at most 100000; a number or its digits',
  examples: [80],
})
export const OfferBodySchema = Type.Object(
  {
    amount: Type.Optional(offerAmountInput),
    unit: Type.Optional(Type.String({ description: 'fixed or hour', examples: ['fixed'] })),
    note: Type.Optional(Type.String({ description: 'At most 500 characters' })),
    proposedTime: Type.Optional(
      Type.String({ description: 'When the worker can do it, free text, at most 100 characters' }),
    ),
  },
  { ...closed, title: 'JobRequestOffer', description: "Optional: the worker's price" },
)

export const CounterOfferBodySchema = Type.Union(
  [
    Type.Object(
      {
        amount: Type.Optional(offerAmountInput),
        unit: Type.Optional(
          Type.String({ description: "fixed or hour; the offer's unit when left out" }),
        ),
        note: Type.Optional(Type.String({ description: 'At most 500 characters' })),
      },
      { ...closed, title: 'CounterOffer' },
    ),
    nullBody,
  ],
  { description: "The post owner's one counter-offer on a request" },
)
export type CounterOfferBody = NonNullable<Static<typeof CounterOfferBodySchema>>

export const CounterAnswerBodySchema = Type.Union(
  [
    Type.Object(
      { answer: Type.Optional(Type.String({ description: 'accepted or declined' })) },
      { ...closed, title: 'CounterAnswer' },
    ),
    nullBody,
  ],
  { description: "The worker's answer to the counter-offer" },
)
export type CounterAnswerBody = NonNullable<Static<typeof CounterAnswerBodySchema>>

/** An offer as the two sides of its request see it (nobody else ever does). */
export const OfferViewSchema = Type.Object(
  {
    ...OfferAmountSchema.properties,
    note: Type.String(),
    proposedTime: Type.String({ description: 'Free text, empty when none' }),
  },
  { ...closed, title: 'OfferView' },
)
export type OfferView = Static<typeof OfferViewSchema>

export const CounterViewSchema = Type.Object(
  {
    ...OfferAmountSchema.properties,
    note: Type.String(),
    state: CounterStateSchema,
    createdAt: Type.String({ format: 'date-time' }),
  },
  { ...closed, title: 'CounterView' },
)
export type CounterView = Static<typeof CounterViewSchema>

/**
 * The terms of a request, sent only to its two sides: `offer` the current one (the
 * worker's, or the counter once accepted), `counter` the owner's one counter-offer, `agreed`
 * the amount fixed when the request was accepted. Optional: absent on requests without an
 * offer, so a client of before offers reads the same answers.
 */
export const requestTermsFields = {
  offer: Type.Optional(Type.Union([OfferViewSchema, Type.Null()])),
  counter: Type.Optional(Type.Union([CounterViewSchema, Type.Null()])),
  agreed: Type.Optional(
    Type.Union([OfferAmountSchema, Type.Null()], {
      description: 'The amount both sides agreed on, once the request is accepted with an offer',
    }),
  ),
}

export const JobRequestTermsSchema = Type.Object(
  {
    _id: Type.String({ description: 'The request id', examples: [OBJECT_ID_EXAMPLE] }),
    postId: Type.String({ examples: [OBJECT_ID_EXAMPLE] }),
    status: RequestStatusSchema,
    updatedAt: Type.String({ format: 'date-time' }),
    ...requestTermsFields,
  },
  { ...closed, title: 'JobRequestTerms' },
)
export type JobRequestTerms = Static<typeof JobRequestTermsSchema>

export const JobRequestCreateBodySchema = Type.Union(
  [
    Type.Object(
      {
        postID: Type.Optional(
          Type.String({
            description: 'The post to request',
            examples: [OBJECT_ID_EXAMPLE],
          }),
        ),
        postId: Type.Optional(Type.String({ description: 'Another name for postID' })),
        offer: Type.Optional(OfferBodySchema),
      },
      { ...closed, title: 'JobRequestCreate' },
    ),
    nullBody,
  ],
  { description: 'A worker asks to do a live post of someone else' },
)
export type JobRequestCreateBody = NonNullable<Static<typeof JobRequestCreateBodySchema>>

export const JobRequestDecisionBodySchema = Type.Union(
  [
    Type.Object(
      {
        status: Type.Optional(
          Type.String({
            description: 'accepted, rejected, or pending to undo an answer',
            examples: ['accepted'],
          }),
        ),
      },
      { ...closed, title: 'JobRequestDecision' },
    ),
    nullBody,
  ],
  { description: "The post owner's answer" },
)
export type JobRequestDecisionBody = NonNullable<Static<typeof JobRequestDecisionBodySchema>>

export const JobRequestIdParamsSchema = Type.Object({
  requestId: Type.String({ description: 'The request id', examples: [OBJECT_ID_EXAMPLE] }),
})
export type JobRequestIdParams = Static<typeof JobRequestIdParamsSchema>

export const JobRequestCreatedSchema = Type.Object(
  {
    _id: Type.String({ description: 'The request id', examples: [OBJECT_ID_EXAMPLE] }),
    postId: Type.String({ examples: [OBJECT_ID_EXAMPLE] }),
    status: RequestStatusSchema,
    createdAt: Type.String({ format: 'date-time' }),
    offer: requestTermsFields.offer,
  },
  { ...closed, title: 'JobRequestCreated' },
)
export type JobRequestCreated = Static<typeof JobRequestCreatedSchema>

export const JobRequestDecidedSchema = Type.Object(
  {
    ...JobRequestCreatedSchema.properties,
    updatedAt: Type.String({ format: 'date-time' }),
    agreed: requestTermsFields.agreed,
  },
  { ...closed, title: 'JobRequestDecided' },
)
export type JobRequestDecided = Static<typeof JobRequestDecidedSchema>

/** GET /api/jobs/user/{userId}/received-requests: read by the post's owner. */
export const ReceivedJobRequestSchema = Type.Object(
  {
    _id: Type.String({ description: 'The request id' }),
    status: RequestStatusSchema,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    requester: Type.Object(
      {
        _id: Type.String(),
        name: Type.String({ examples: ['Wanda Worker'] }),
        profilePicture: nullableString({ description: 'Object key under userImages/, or null' }),
        email: Type.String({ examples: ['wanda@example.com'] }),
        isWorker: Type.Boolean(),
        title: Type.String({ description: "The worker profile's title", examples: ['Mover'] }),
        skills: Type.Array(Type.String(), { examples: [['Lifting', 'Driving']] }),
        rating: Type.Optional(
          Type.Object(
            {
              average: Type.Union([Type.Number(), Type.Null()], { examples: [4.5] }),
              count: Type.Integer({ minimum: 0 }),
            },
            { ...closed, description: "The worker's rating from post owners" },
          ),
        ),
        completedRequests: Type.Optional(
          Type.Integer({ minimum: 0, description: 'Requests on posts accepted for this worker' }),
        ),
      },
      { ...closed, description: "The requester's card" },
    ),
    post: Type.Object(
      {
        _id: Type.String(),
        title: Type.String({ description: '"Unknown Job" when the post is gone' }),
        location: Type.String({ description: '"No location" when none' }),
        salary: Type.String(),
        picture: nullableString({ description: "The post's picture key, or null" }),
        status: literalUnion(['online', 'offline'] as const),
      },
      { ...closed, description: "The owner's own post" },
    ),
    ...requestTermsFields,
  },
  { ...closed, title: 'ReceivedJobRequest' },
)
export type ReceivedJobRequest = Static<typeof ReceivedJobRequestSchema>

export const ReceivedJobRequestListSchema = Type.Array(ReceivedJobRequestSchema, {
  description: "Requests on the caller's posts, with the requester and the post",
})

/** GET /api/jobs/user/{userId}/sent-requests: read by the requester. */
export const SentJobRequestSchema = Type.Object(
  {
    _id: Type.String({ description: 'The request id' }),
    status: RequestStatusSchema,
    createdAt: Type.String({ format: 'date-time' }),
    post: Type.Object(
      {
        _id: Type.String(),
        title: Type.String(),
        location: nullableString({
          description: 'null while hidden from the requester (until accepted)',
        }),
        salary: Type.String(),
        jobPicture: nullableString({ description: "The post's picture key, or null" }),
        displayLocation: Type.Boolean(),
        displayContact: Type.Boolean(),
        contact: nullableString({
          description:
            'The contact method; null while the owner keeps the contact private from the requester',
        }),
        ...contactValueFields,
        infos: Type.String(),
        owner: Type.Object(
          { _id: Type.String(), name: Type.String({ examples: ['Olga Owner'] }) },
          closed,
        ),
      },
      { ...closed, description: 'The post as the requester may see it' },
    ),
    ...requestTermsFields,
  },
  { ...closed, title: 'SentJobRequest' },
)
export type SentJobRequest = Static<typeof SentJobRequestSchema>

export const SentJobRequestListSchema = Type.Array(SentJobRequestSchema, {
  description: "The caller's requests whose post still exists",
})

// ---------------------------------------------------------------------------------------
// Stats
// ---------------------------------------------------------------------------------------

export const JobsStatsParamsSchema = Type.Object({
  userId: Type.String({
    maxLength: 64,
    description: "The caller's own user id (checked against the token)",
  }),
})

const count = () => Type.Integer({ minimum: 0 })

export const JobsRequestCountsSchema = Type.Object(
  { total: count(), pending: count(), accepted: count(), rejected: count() },
  closed,
)
export type JobsRequestCounts = Static<typeof JobsRequestCountsSchema>

const AgreedSummarySchema = (description: string) =>
  Type.Object(
    {
      requests: count(),
      fixedTotal: Type.Number({ minimum: 0, description: 'Sum of the fixed amounts' }),
      perHourRequests: Type.Integer({
        minimum: 0,
        description: 'Agreements per hour (not summed: the hours are not known)',
      }),
    },
    { ...closed, description },
  )

export const JobsStatsSchema = Type.Object(
  {
    posts: Type.Object(
      {
        total: count(),
        online: Type.Integer({
          minimum: 0,
          description: 'Live: online, not taken down, not expired',
        }),
        offline: count(),
      },
      closed,
    ),
    requestsReceived: Type.Object(JobsRequestCountsSchema.properties, {
      ...closed,
      description: "Requests on the user's posts",
    }),
    requestsSent: Type.Object(JobsRequestCountsSchema.properties, {
      ...closed,
      description: 'Requests the user sent',
    }),
    acceptanceRate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description:
        'accepted / (accepted + rejected) of the requests received, two decimals; null before any was answered',
      examples: [0.67],
    }),
    agreed: Type.Optional(
      Type.Object(
        {
          received: AgreedSummarySchema("On the user's posts: what they agreed to pay"),
          sent: AgreedSummarySchema('As a worker: what they agreed to be paid'),
        },
        {
          ...closed,
          description: 'Accepted requests with an agreed amount (docs/post-requests.md)',
        },
      ),
    ),
    daily: Type.Array(RequestActivityDaySchema, {
      description:
        "Requests on the user's posts (received) and requests the user sent, per UTC day, oldest first, ending today",
    }),
  },
  { ...closed, title: 'JobsStats', description: 'docs/ratings-and-stats.md' },
)
export type JobsStats = Static<typeof JobsStatsSchema>
