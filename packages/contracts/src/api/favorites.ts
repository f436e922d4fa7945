import { Type, type Static } from '@sinclair/typebox'

/**
 * The favorites service's HTTP contract (docs/favorites-and-reports.md): request
 * and response schemas of its routes. Bodies declare their fields' types only: the rules
 * whose messages are the product's copy run in the service (favorites-service.ts), so a
 * missing id still answers "Choose a post to save: postId is missing", not Ajv's text.
 */

const Id = (description: string) => Type.String({ maxLength: 64, description })
const NullableString = (options: { description?: string } = {}) =>
  Type.Union([Type.String(), Type.Null()], options)
const Timestamp = (description: string) => Type.String({ format: 'date-time', description })

/**
 * A post as a guest sees it, in the jobs service's guest shape (@marketplace/read-models
 * `toPublicPostView`): a hidden location or contact is null, `authorizedUsers` always empty.
 * Favorites lists and the moderation queue both show posts this way.
 */
export const CatalogPostViewSchema = Type.Object(
  {
    _id: Type.String({ description: 'The post id' }),
    jobID: Type.String({ description: 'The post id again' }),
    userID: Type.String({ description: "The owner's user id" }),
    title: Type.String({ examples: ['Move a piano'] }),
    location: NullableString({ description: 'Null when the owner hides it' }),
    jobStartEnd: Type.String(),
    salary: Type.String(),
    paymentType: Type.Array(Type.String()),
    contact: NullableString({ description: 'Null when the owner hides it' }),
    infos: Type.String(),
    displayLocation: Type.Boolean(),
    displayContact: Type.Boolean(),
    jobPicture: NullableString(),
    category: Type.String(),
    isOnline: Type.Boolean(),
    expirationDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    authorizedUsers: Type.Array(Type.String(), {
      description: 'Always empty: who was accepted never leaves the jobs service',
    }),
    createdAt: Timestamp('When the post was published'),
    updatedAt: Timestamp('When the post last changed'),
  },
  { title: 'CatalogPost' },
)
export type CatalogPostView = Static<typeof CatalogPostViewSchema>

/**
 * A person as a stranger sees them, in the people service's stranger shape
 * (@marketplace/read-models `toPublicPersonView`): an age, never the date of birth; public contacts only;
 * no e-mail or phone.
 */
export const CatalogPersonViewSchema = Type.Object(
  {
    _id: Type.String({ description: "The person's user id" }),
    firstName: Type.String(),
    lastName: Type.String(),
    name: Type.String({ examples: ['Mia Member'] }),
    age: Type.Union([Type.Integer(), Type.Null()]),
    isWorker: Type.Boolean(),
    title: Type.String({ examples: ['House mover'] }),
    skills: Type.Array(Type.String()),
    availability: Type.String(),
    paymentType: Type.String(),
    location: Type.String(),
    infos: Type.String(),
    contacts: Type.Array(
      Type.Object({ value: Type.String(), visibility: Type.Literal('public') }),
      { description: 'Public contacts only; hidden ones never leave the people service' },
    ),
    profilePicture: NullableString(),
    isOnline: Type.Boolean(),
    category: NullableString(),
  },
  { title: 'CatalogPerson' },
)
export type CatalogPersonView = Static<typeof CatalogPersonViewSchema>

export const FavoritesUserParamsSchema = Type.Object({
  userId: Id("The caller's own user id (403 for anyone else's)"),
})
export type FavoritesUserParams = Static<typeof FavoritesUserParamsSchema>

export const FavoritePostParamsSchema = Type.Object({
  userId: Id("The caller's own user id (403 for anyone else's)"),
  postId: Id('The saved post'),
})
export type FavoritePostParams = Static<typeof FavoritePostParamsSchema>

export const FavoritePersonParamsSchema = Type.Object({
  userId: Id("The caller's own user id (403 for anyone else's)"),
  personId: Id('The saved person'),
})
export type FavoritePersonParams = Static<typeof FavoritePersonParamsSchema>

/** POST /api/favorites/posts (body userId, postId). */
export const FavoritePostBodySchema = Type.Object(
  {
    userId: Type.Optional(
      Type.String({
        description:
          'The caller\'s own user id (403 "You can only access your own account" otherwise)',
      }),
    ),
    postId: Type.Optional(
      Type.String({
        description:
          'The post to save. Missing: 400 "Choose a post to save: postId is missing"; unknown or taken down: 404 "Post not found"; one\'s own: 400 "You cannot add your own post to your favorites"',
      }),
    ),
  },
  { additionalProperties: false },
)
export type FavoritePostBody = Static<typeof FavoritePostBodySchema>

/** POST /api/favorites/people (body userID, personID; the spelling is the spec's). */
export const FavoritePersonBodySchema = Type.Object(
  {
    userID: Type.Optional(
      Type.String({
        description:
          'The caller\'s own user id (403 "You can only access your own account" otherwise)',
      }),
    ),
    personID: Type.Optional(
      Type.String({
        description:
          'The worker to save. Missing: 400 "Choose a person to save: personID is missing"; oneself: 400 "You cannot add yourself to your favorites"; unknown: 404 "Person not found"; without a worker profile: 400 "This person has no worker profile"',
      }),
    ),
  },
  { additionalProperties: false },
)
export type FavoritePersonBody = Static<typeof FavoritePersonBodySchema>

/** The saved post as a guest sees it. */
export const FavoritePostEntrySchema = Type.Object(
  {
    favoriteID: CatalogPostViewSchema,
    createdAt: Timestamp('When it was saved'),
    updatedAt: Timestamp('When the entry last changed'),
  },
  { title: 'FavoritePostEntry' },
)
export type FavoritePostEntry = Static<typeof FavoritePostEntrySchema>

/** The saved worker as a stranger sees them, and their id. */
export const FavoritePersonEntrySchema = Type.Object(
  {
    favoriteID: CatalogPersonViewSchema,
    personID: Type.String({ description: "The person's user id (the home feed's saved state)" }),
    createdAt: Timestamp('When it was saved'),
    updatedAt: Timestamp('When the entry last changed'),
  },
  { title: 'FavoritePersonEntry' },
)
export type FavoritePersonEntry = Static<typeof FavoritePersonEntrySchema>

export const FavoritePostListSchema = Type.Array(FavoritePostEntrySchema, {
  description: 'Newest first; posts gone or taken down are left out',
})
export const FavoritePersonListSchema = Type.Array(FavoritePersonEntrySchema, {
  description: 'Newest first; people gone, taken down or no longer workers are left out',
})

/** GET /api/favorites/stats/{userId} (docs/ratings-and-stats.md). */
export const FavoritesStatsSchema = Type.Object(
  {
    postFavoritesReceived: Type.Integer({
      minimum: 0,
      description: "How many times others saved the user's posts",
    }),
    peopleFavoritesReceived: Type.Integer({
      minimum: 0,
      description: 'How many people saved the user',
    }),
  },
  { title: 'FavoritesStats' },
)
export type FavoritesStats = Static<typeof FavoritesStatsSchema>
