import {
  isVisiblePerson,
  isVisiblePost,
  toPublicPersonView,
  toPublicPostView,
  type CatalogPerson,
  type CatalogPost,
} from '@marketplace/service-kit/read-models'
import type { FavoriteDocument } from './favorite-document'

/**
 * List entries (spec 2 §3 "Favorite entry"): `favoriteID` is the saved post or person as a
 * stranger sees it (from the read models: no hidden location, contact or worker contact),
 * and people entries also carry `personID`, which the home feed uses to show the saved state.
 * An entry whose target is gone or was taken down is left out (null here).
 */
export function postEntry(favorite: FavoriteDocument, post: CatalogPost | null | undefined) {
  if (!isVisiblePost(post)) return null
  return {
    favoriteID: toPublicPostView(post),
    createdAt: favorite.createdAt.toISOString(),
    updatedAt: favorite.updatedAt.toISOString(),
  }
}

export function personEntry(
  favorite: FavoriteDocument,
  person: CatalogPerson | null | undefined,
  now = new Date(),
) {
  if (!isVisiblePerson(person) || !person.isWorker) return null
  return {
    favoriteID: toPublicPersonView(person, now),
    personID: person._id,
    createdAt: favorite.createdAt.toISOString(),
    updatedAt: favorite.updatedAt.toISOString(),
  }
}

export type PostEntry = NonNullable<ReturnType<typeof postEntry>>
export type PersonEntry = NonNullable<ReturnType<typeof personEntry>>
