import { Type, type Static } from '@sinclair/typebox'

// Saved searches and their alerts (docs/saved-searches.md): the caller's own, through
// /api/notifications/saved-searches.

export const SavedSearchEmailSchema = Type.Union(
  [Type.Literal('immediate'), Type.Literal('daily'), Type.Literal('off')],
  { description: 'E-mail of new matches: at once, in one mail a day, or none' },
)

export const SavedSearchSchema = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  query: Type.String({
    description:
      "The home page's URL query the search keeps (feed, category, filters, near, within, search)",
    examples: ['feed=job&category=Moving&near=Austin%2C+TX&within=25&search=piano'],
  }),
  paused: Type.Boolean(),
  email: SavedSearchEmailSchema,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
})
export type SavedSearch = Static<typeof SavedSearchSchema>

export const SavedSearchListSchema = Type.Object({
  savedSearches: Type.Array(SavedSearchSchema),
  limit: Type.Integer({ description: 'How many saved searches a user may keep' }),
})
export type SavedSearchList = Static<typeof SavedSearchListSchema>

export const SavedSearchCreateSchema = Type.Object({
  name: Type.String({ maxLength: 200 }),
  query: Type.String({ maxLength: 2000 }),
  email: Type.Optional(SavedSearchEmailSchema),
  paused: Type.Optional(Type.Boolean()),
})
export type SavedSearchCreate = Static<typeof SavedSearchCreateSchema>

export const SavedSearchChangeSchema = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(SavedSearchEmailSchema),
  paused: Type.Optional(Type.Boolean()),
})
export type SavedSearchChange = Static<typeof SavedSearchChangeSchema>

export const SavedSearchIdParamsSchema = Type.Object({ id: Type.String({ maxLength: 100 }) })

export const SavedSearchDeletedSchema = Type.Object({ deleted: Type.Boolean() })

/** The one-click unsubscribe's form (RFC 8058): the signed token of the e-mail's link. */
export const SavedSearchUnsubscribeSchema = Type.Object({
  token: Type.String({ maxLength: 500 }),
})
/**
 * Where the one-click POST of a mail client carries the token: the List-Unsubscribe URL's
 * query (its form body holds only `List-Unsubscribe=One-Click`). The web page sends it in a
 * JSON body instead. A token that is too long or not ours is a 404, as one that was tampered.
 */
export const SavedSearchUnsubscribeQuerySchema = Type.Object({
  token: Type.Optional(Type.String({ description: "The signed token of the e-mail's link" })),
})
export const SavedSearchUnsubscribedSchema = Type.Object({
  name: Type.String({ description: 'The saved search whose e-mails stopped' }),
})
