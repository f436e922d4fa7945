import { Type, type Static } from '@sinclair/typebox'
import { RequestActivityDaySchema } from './common'
import { FEED_PAGE_SIZE, MAX_PAGE_SIZE, SEARCH_RESULT_LIMIT } from '../marketplace/feed'
import { InterestSchema } from '../marketplace/interests'
import { RequestStatusSchema } from '../marketplace/requests'
import { ContactVisibilitySchema } from '../marketplace/workers'
import { Messages } from '../validation/messages'
import { nearQueryFields } from './jobs'

/**
 * The people service's HTTP contract (docs/people.md, docs/ratings-and-stats.md): /api/users/*
 * and /api/people/*. The response schemas are the last guard of privacy: Fastify serializes
 * with fast-json-stringify, which writes only the properties listed here, so a stranger's
 * answer cannot carry the e-mail, phone, date of birth or hidden contacts even if a view
 * slipped one in.
 *
 * Bodies: each field is declared with its type, but the rules whose messages are the product's
 * copy (`@marketplace/contracts/validation`, the ratings' messages) stay in the service, so a
 * field the service answers with such a message when it is missing stays optional here.
 */

const ID_MAX_LENGTH = 64

/** `{id}` of /api/users/{id}: anyone's profile to read, one's own to change or delete. */
export const PeopleUserParamsSchema = Type.Object({
  id: Type.String({
    maxLength: ID_MAX_LENGTH,
    description: 'A user id; on PUT and DELETE it must be the caller’s own (else 403)',
    examples: ['665f1c2ab7e4d9a1c3f0a001'],
  }),
})
export type PeopleUserParams = Static<typeof PeopleUserParamsSchema>

/** `{userId}` of routes that only ever act on the caller's own account. */
export const PeopleOwnUserParamsSchema = Type.Object({
  userId: Type.String({
    maxLength: ID_MAX_LENGTH,
    description: 'The caller’s own user id (checked against the token: anyone else’s is a 403)',
    examples: ['665f1c2ab7e4d9a1c3f0a001'],
  }),
})
export type PeopleOwnUserParams = Static<typeof PeopleOwnUserParamsSchema>

export const PeopleRequestParamsSchema = Type.Object({
  requestId: Type.String({
    maxLength: ID_MAX_LENGTH,
    description:
      'A request to a person; one the caller did not send or receive answers 404, as if it did not exist',
  }),
})
export type PeopleRequestParams = Static<typeof PeopleRequestParamsSchema>

export const WorkerRatingParamsSchema = Type.Object({
  requestId: Type.String({
    maxLength: ID_MAX_LENGTH,
    description:
      'An accepted request on one of the caller’s posts (jobs service); any other request answers 404',
  }),
})
export type WorkerRatingParams = Static<typeof WorkerRatingParamsSchema>

export const PersonContactSchema = Type.Object(
  {
    value: Type.String({ examples: ['mover@example.com', '(303) 555-0199'] }),
    visibility: ContactVisibilitySchema,
  },
  {
    title: 'PersonContact',
    description:
      'Public contacts are seen by everyone; hidden ones only by the worker and the owners of posts the worker requested',
  },
)
export type PersonContact = Static<typeof PersonContactSchema>

export const PersonRatingSchema = Type.Object(
  {
    average: Type.Union([Type.Number(), Type.Null()], {
      description: 'Average stars to one decimal; null before the first rating',
      examples: [4.5],
    }),
    count: Type.Integer({ minimum: 0, description: 'How many ratings the average counts' }),
  },
  { title: 'PersonRating', description: 'The worker’s rating by the owners of posts they did' },
)
export type PersonRating = Static<typeof PersonRatingSchema>

const personProperties = {
  _id: Type.String({ description: 'The user id' }),
  firstName: Type.String({ examples: ['Alice'] }),
  lastName: Type.String({ examples: ['Moreau'] }),
  name: Type.String({ description: 'First and last name', examples: ['Alice Moreau'] }),
  age: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Computed from the date of birth, which never leaves the server (“N years old”)',
    examples: [34],
  }),
  isWorker: Type.Boolean({ description: 'Has a worker profile that others may see' }),
  title: Type.String({ description: 'Empty without a worker profile', examples: ['House mover'] }),
  skills: Type.Array(Type.String(), { examples: [['Lifting', 'Driving']] }),
  availability: Type.String({ examples: ['Weekends'] }),
  paymentType: Type.String({ description: 'Free text', examples: ['Cash or Venmo'] }),
  location: Type.String({ examples: ['Denver CO'] }),
  infos: Type.String(),
  contacts: Type.Array(PersonContactSchema),
  profilePicture: Type.Union([Type.String(), Type.Null()], {
    description: 'Object key of the picture in the public bucket; null for the placeholder',
    examples: ['userImages/665f1c2ab7e4d9a1c3f0a001/me.png'],
  }),
  isOnline: Type.Boolean({ description: 'Listed in the people feed (the Online/Offline switch)' }),
  category: Type.Union([Type.String(), Type.Null()], {
    description: 'Derived from the title, then the skills; null without a worker profile',
    examples: ['Moving'],
  }),
  rating: PersonRatingSchema,
  distanceMiles: Type.Optional(
    Type.Number({
      minimum: 0,
      description:
        'In the feed or a search asked near a place: miles from it to the worker’s location, when that is a known place (docs/distance.md)',
      examples: [3.2],
    }),
  ),
}

/** A person as anyone but themself sees them (docs/people.md "What a stranger sees"). */
export const PersonViewSchema = Type.Object(personProperties, {
  title: 'PersonView',
  description:
    'A person as others see them: never the e-mail, phone number, date of birth or a hidden contact the viewer may not see',
})
export type PersonView = Static<typeof PersonViewSchema>

/** The user's own profile: the person, every contact, and the account's private fields. */
export const PersonSelfViewSchema = Type.Object(
  {
    ...personProperties,
    email: Type.String({ examples: ['alice.moreau@example.com'] }),
    phoneNumber: Type.String({ examples: ['(212) 555-0100'] }),
    dateOfBirth: Type.String({ description: 'YYYY-MM-DD', examples: ['1990-06-15'] }),
    interest: Type.Union([InterestSchema, Type.Null()], {
      description: '“Interested in” from sign-up',
    }),
    emailPreferences: Type.Boolean(),
    homePlace: Type.Optional(
      Type.String({
        description:
          'The place the feed’s Within control starts from (docs/distance.md); absent when none is set',
        examples: ['Austin, TX'],
      }),
    ),
    createdAt: Type.String({ format: 'date-time', description: 'Sign-up' }),
    deletion: Type.Union(
      [
        Type.Object({
          purgeAfter: Type.String({
            format: 'date-time',
            description: 'When the account is deleted for good unless kept (30 days)',
          }),
        }),
        Type.Null(),
      ],
      { description: 'Set while the account waits for deletion' },
    ),
  },
  {
    title: 'PersonSelfView',
    description: 'The user’s own profile, hidden contacts and account fields included',
  },
)
export type PersonSelfView = Static<typeof PersonSelfViewSchema>

/**
 * GET /api/users/{id}: the self view for one's own id, else the person view. The serializer
 * writes an answer with the first branch it matches, so the self view comes first: only an
 * answer carrying every account field is written as one, and a person view is written with
 * the person's fields alone, whatever else it held.
 */
export const PersonProfileSchema = Type.Union([PersonSelfViewSchema, PersonViewSchema], {
  description: 'The self view when {id} is the caller’s, the person view otherwise',
})
export type PersonProfile = Static<typeof PersonProfileSchema>

export const AccountDeletionSchema = Type.Object(
  {
    message: Type.String({ examples: [Messages.account.deleted] }),
    purgeAfter: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'End of the 30-day grace period; logging in with “Keep my account” keeps it',
    }),
  },
  { title: 'AccountDeletion' },
)
export type AccountDeletion = Static<typeof AccountDeletionSchema>

/**
 * PUT /api/users/{id}. Open on purpose: an `email` sent along is refused by the service (the
 * e-mail is never editable) rather than silently dropped.
 */
export const AccountUpdateBodySchema = Type.Object(
  {
    firstName: Type.String({ description: 'Sign-up rules for a name', examples: ['Alice'] }),
    lastName: Type.String({
      description: 'Sign-up rules for a name (one word, hyphens allowed)',
      examples: ['Moreau'],
    }),
    phoneNumber: Type.String({
      description: 'A US phone number, stored as (NNN) NNN-NNNN',
      examples: ['303 555 0123'],
    }),
  },
  {
    title: 'AccountUpdateBody',
    description: 'Names and phone; any other field, the e-mail included, is refused with 400',
  },
)
export type AccountUpdateBody = Static<typeof AccountUpdateBodySchema>

export const WorkerProfileBodySchema = Type.Object(
  {
    title: Type.String({ description: 'Required, bounded length', examples: ['House mover'] }),
    skills: Type.Array(Type.String(), {
      description: 'At least one; entries trimmed, empty ones dropped; bounded count and length',
      examples: [['Lifting', 'Driving']],
    }),
    availability: Type.String({ description: 'Required', examples: ['Weekends'] }),
    paymentType: Type.String({ description: 'Required, free text', examples: ['Cash or Venmo'] }),
    location: Type.String({ description: 'Required', examples: ['Denver CO'] }),
    infos: Type.Optional(Type.String({ examples: ['Own van'] })),
    contacts: Type.Optional(
      Type.Array(
        Type.Object({
          value: Type.String({ examples: ['mover@example.com'] }),
          visibility: ContactVisibilitySchema,
        }),
        { description: 'Bounded count; empty values dropped' },
      ),
    ),
    isOnline: Type.Optional(
      Type.Boolean({ description: 'A new profile is online unless false is sent' }),
    ),
    profilePicture: Type.Optional(
      Type.String({
        description:
          'An upload key under userImages/{userId}/ (the caller’s own upload slot); "" removes the picture',
        examples: ['userImages/665f1c2ab7e4d9a1c3f0a001/me.png'],
      }),
    ),
  },
  {
    title: 'WorkerProfileBody',
    description:
      'Creates or replaces the worker profile; the first failing rule’s message is the 400’s',
  },
)
export type WorkerProfileBody = Static<typeof WorkerProfileBodySchema>

export const WorkerStatusBodySchema = Type.Object(
  { isOnline: Type.Boolean({ description: 'The Online/Offline switch', examples: [false] }) },
  { title: 'WorkerStatusBody' },
)
export type WorkerStatusBody = Static<typeof WorkerStatusBodySchema>

/** PUT /api/users/{id}/home-place: the place the feed's Within control starts from. */
export const HomePlaceBodySchema = Type.Object(
  {
    homePlace: Type.String({
      maxLength: 100,
      description:
        'A town ("Austin, TX") or a US ZIP code the gazetteer knows (else 400 UNKNOWN_PLACE); empty to clear it',
      examples: ['Austin, TX'],
    }),
  },
  { title: 'HomePlaceBody' },
)
export type HomePlaceBody = Static<typeof HomePlaceBodySchema>

export const PeopleFeedQuerystringSchema = Type.Object({
  category: Type.Optional(
    Type.String({ maxLength: 100, description: 'A category, or All', examples: ['Moving'] }),
  ),
  location: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'The worker’s location as written, or All',
      examples: ['Denver CO'],
    }),
  ),
  payment: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'A payment option named in the worker’s payment type, or All',
      examples: ['Venmo'],
    }),
  ),
  contact: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'A kind of public contact (Email, Phone, WhatsApp, ...), or All',
      examples: ['Email'],
    }),
  ),
  page: Type.Optional(Type.String({ maxLength: 10, description: 'From 1', examples: ['2'] })),
  limit: Type.Optional(
    Type.String({
      maxLength: 10,
      description: `Per page (default ${FEED_PAGE_SIZE}) or search results (default ${SEARCH_RESULT_LIMIT}), at most ${MAX_PAGE_SIZE}`,
    }),
  ),
  sort: Type.Optional(
    Type.String({
      maxLength: 10,
      description: 'desc (newest sign-up first, the default) or asc',
      examples: ['asc'],
    }),
  ),
  search: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Words matched by prefix against full name, title and skills; answers without pagination',
      examples: ['dog walk'],
    }),
  ),
  after: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        "Cursor paging, an addition to page: empty for the first page, then the previous answer's pagination.nextCursor; each page starts right after the last worker of the one before, so pages never overlap nor skip, on any instance (page is then not read). Without it the answer has no nextCursor",
    }),
  ),
  ...nearQueryFields,
})
export type PeopleFeedQuerystring = Static<typeof PeopleFeedQuerystringSchema>

export const PeopleFeedPageSchema = Type.Object(
  {
    people: Type.Array(PersonViewSchema),
    pagination: Type.Optional(
      Type.Object(
        {
          page: Type.Integer(),
          totalPages: Type.Integer(),
          total: Type.Integer({ description: 'Workers matching the filters' }),
          limit: Type.Integer(),
          nextCursor: Type.Optional(
            Type.String({
              description:
                'With after (cursor paging): the next page is after=<nextCursor>; absent on the last page',
            }),
          ),
        },
        { description: 'Absent on a search' },
      ),
    ),
  },
  { title: 'PeopleFeedPage' },
)
export type PeopleFeedPage = Static<typeof PeopleFeedPageSchema>

export const PeopleCategoriesQuerystringSchema = Type.Object({
  includeEmpty: Type.Optional(
    Type.String({ description: 'true lists categories without workers (default false)' }),
  ),
  includeUncategorized: Type.Optional(
    Type.String({ description: 'false leaves Uncategorized out (default true)' }),
  ),
})
export type PeopleCategoriesQuerystring = Static<typeof PeopleCategoriesQuerystringSchema>

export const PeopleCategoriesSchema = Type.Object(
  {
    categories: Type.Array(Type.String(), { examples: [['Moving', 'Pet care']] }),
    metadata: Type.Object({
      totalWorkers: Type.Integer({ description: 'Workers in the feed' }),
      counts: Type.Record(Type.String(), Type.Integer(), {
        description: 'Workers per category, as the feed filters them',
        examples: [{ Moving: 3, 'Pet care': 1 }],
      }),
    }),
  },
  { title: 'PeopleCategories' },
)
export type PeopleCategories = Static<typeof PeopleCategoriesSchema>

export const PeopleRequestSendBodySchema = Type.Object(
  {
    postID: Type.Optional(
      Type.String({
        description: 'Required: one of the caller’s own posts, accepting requests',
        examples: ['665f1c2ab7e4d9a1c3f0b002'],
      }),
    ),
    requestedID: Type.Optional(
      Type.String({
        description: 'Required: the user id of a worker other than the caller',
        examples: ['665f1c2ab7e4d9a1c3f0a001'],
      }),
    ),
  },
  {
    title: 'PeopleRequestSendBody',
    description: `Both ids are required; without them the answer is 400 "${Messages.requests.invalid}"`,
  },
)
export type PeopleRequestSendBody = Static<typeof PeopleRequestSendBodySchema>

export const PeopleRequestDecisionBodySchema = Type.Object(
  {
    status: Type.Optional(
      Type.String({
        description: `Required: accepted or rejected, else 400 "${Messages.requests.decisionStatus}"`,
        examples: ['accepted'],
      }),
    ),
  },
  { title: 'PeopleRequestDecisionBody' },
)
export type PeopleRequestDecisionBody = Static<typeof PeopleRequestDecisionBodySchema>

const personNameSchema = Type.Object({
  _id: Type.String(),
  name: Type.String({
    description: 'Read at answer time; "Unknown User" once the account is gone',
  }),
})

const peopleRequestProperties = {
  _id: Type.String(),
  status: RequestStatusSchema,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  post: Type.Object({ _id: Type.String(), title: Type.String({ examples: ['Move a piano'] }) }),
}

/** A request as its sender (the post's owner) sees it. */
export const SentPeopleRequestSchema = Type.Object(
  { ...peopleRequestProperties, requestedPerson: personNameSchema },
  { title: 'SentPeopleRequest' },
)
export type SentPeopleRequest = Static<typeof SentPeopleRequestSchema>

/** A request as the requested worker sees it. */
export const ReceivedPeopleRequestSchema = Type.Object(
  { ...peopleRequestProperties, requester: personNameSchema },
  { title: 'ReceivedPeopleRequest' },
)
export type ReceivedPeopleRequest = Static<typeof ReceivedPeopleRequestSchema>

export const SentPeopleRequestListSchema = Type.Array(SentPeopleRequestSchema, {
  description: 'Newest first',
})
export const ReceivedPeopleRequestListSchema = Type.Array(ReceivedPeopleRequestSchema, {
  description: 'Newest first',
})

/**
 * PUT /api/people/ratings/{requestId}. Neither field carries a JSON type: any value the rules
 * refuse, a wrong type included, is answered with the ratings' own message (the web app shows
 * it), which a type check here would replace.
 */
export const WorkerRatingBodySchema = Type.Object(
  {
    stars: Type.Optional(
      Type.Unknown({
        description:
          'Required: a whole number from 1 to 5, else 400 "Please choose between 1 and 5 stars"',
        examples: [4],
      }),
    ),
    comment: Type.Optional(
      Type.Unknown({
        description:
          'Text, at most 500 characters once trimmed; null or absent for none. Else 400 "The comment must be text" or "Your comment can be at most 500 characters"',
        examples: ['On time and careful with the piano'],
      }),
    ),
  },
  { title: 'WorkerRatingBody' },
)
export type WorkerRatingBody = Static<typeof WorkerRatingBodySchema>

const workerRatingProperties = {
  stars: Type.Integer({ minimum: 1, maximum: 5, examples: [4] }),
  comment: Type.String({ description: '"" when none' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  editableUntil: Type.String({
    format: 'date-time',
    description: '14 days after the rating was first given',
  }),
}

/** A rating as its author (the post's owner) sees it. */
export const WorkerRatingViewSchema = Type.Object(workerRatingProperties, {
  title: 'WorkerRatingView',
})
export type WorkerRatingView = Static<typeof WorkerRatingViewSchema>

export const SavedWorkerRatingSchema = Type.Object(
  {
    _id: Type.String(),
    requestId: Type.String(),
    workerId: Type.String(),
    ...workerRatingProperties,
  },
  { title: 'SavedWorkerRating' },
)
export type SavedWorkerRating = Static<typeof SavedWorkerRatingSchema>

export const RateableRequestSchema = Type.Object(
  {
    requestId: Type.String(),
    status: RequestStatusSchema,
    post: Type.Object({ _id: Type.String(), title: Type.String({ examples: ['Move a sofa'] }) }),
    worker: Type.Object({
      _id: Type.String(),
      name: Type.String({ examples: ['Wanda Worker'] }),
      profilePicture: Type.Union([Type.String(), Type.Null()]),
      title: Type.String({ examples: ['House mover'] }),
    }),
    rating: Type.Union([WorkerRatingViewSchema, Type.Null()], {
      description: 'The caller’s rating of this request, null before they gave one',
    }),
  },
  { title: 'RateableRequest', description: 'An accepted request on one of the caller’s posts' },
)
export type RateableRequest = Static<typeof RateableRequestSchema>

export const RateableRequestListSchema = Type.Array(RateableRequestSchema, {
  description: 'Newest first',
})

/** Counts of people requests per status; `total` is their sum. */
function peopleRequestCounts(description: string) {
  return Type.Object(
    {
      total: Type.Integer(),
      pending: Type.Integer(),
      accepted: Type.Integer(),
      rejected: Type.Integer(),
    },
    { description },
  )
}

export const PeopleStatsViewSchema = Type.Object(
  {
    peopleRequestsSent: peopleRequestCounts('Requests the user sent to workers, as a post owner'),
    peopleRequestsReceived: peopleRequestCounts('Requests the user received as a worker'),
    rating: PersonRatingSchema,
    daily: Type.Array(RequestActivityDaySchema, {
      description:
        'People requests the user received as a worker and sent as a post owner, per UTC day, oldest first, ending today',
    }),
  },
  { title: 'PeopleStatsView' },
)
export type PeopleStatsView = Static<typeof PeopleStatsViewSchema>

/** POST /api/people/blocks: the person the caller blocks (docs/blocking.md). */
export const BlockBodySchema = Type.Object(
  {
    userId: Type.Optional(
      Type.String({
        maxLength: ID_MAX_LENGTH,
        description: 'The person to block; not the caller, and someone who exists (else 400, 404)',
      }),
    ),
  },
  { title: 'BlockBody' },
)
export type BlockBody = Static<typeof BlockBodySchema>

/** `{userId}` of DELETE /api/people/blocks/{userId}: a person the caller blocked. */
export const BlockParamsSchema = Type.Object({
  userId: Type.String({
    maxLength: ID_MAX_LENGTH,
    description: 'A person the caller blocked (else 404)',
  }),
})
export type BlockParams = Static<typeof BlockParamsSchema>

/** A person the caller blocked, as Settings › Blocked users lists them. */
export const BlockedUserSchema = Type.Object(
  {
    user: Type.Object({
      _id: Type.String(),
      name: Type.String({ examples: ['Sam Carter'] }),
      profilePicture: Type.Union([Type.String(), Type.Null()]),
    }),
    blockedAt: Type.String({ format: 'date-time' }),
  },
  { title: 'BlockedUser' },
)
export type BlockedUser = Static<typeof BlockedUserSchema>

export const BlockedUserListSchema = Type.Object(
  { blocks: Type.Array(BlockedUserSchema, { description: 'Newest first' }) },
  { title: 'BlockedUserList' },
)
export type BlockedUserList = Static<typeof BlockedUserListSchema>
