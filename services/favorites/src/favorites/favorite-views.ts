import type { FavoritePersonEntry, FavoritePostEntry } from '@marketplace/contracts/api'
import {
  isDeletionPending,
  isVisiblePerson,
  isVisiblePost,
  toPublicPersonView,
  toPublicPostView,
  type CatalogPerson,
  type CatalogPost,
} from '@marketplace/read-models/catalogs'
import type { FavoriteDocument } from './favorite-document'

/**
 * List entries: `favoriteID` is the saved post or person as a
 * stranger sees it (from the read models: no hidden location, contact or worker contact),
 * and people entries also carry `personID`, which the home feed uses to show the saved state.
 */
export function postEntry(favorite: FavoriteDocument, post: CatalogPost): FavoritePostEntry {
  return {
    favoriteID: toPublicPostView(post),
    createdAt: favorite.createdAt.toISOString(),
    updatedAt: favorite.updatedAt.toISOString(),
  }
}

export function personEntry(
  favorite: FavoriteDocument,
  person: CatalogPerson,
  now = new Date(),
): FavoritePersonEntry {
  return {
    favoriteID: toPublicPersonView(person, now),
    personID: person._id,
    createdAt: favorite.createdAt.toISOString(),
    updatedAt: favorite.updatedAt.toISOString(),
  }
}

/** An entry whose post is gone or was taken down is left out of the list. */
export const isListedPost = (post: CatalogPost | null | undefined): post is CatalogPost =>
  isVisiblePost(post)

/**
 * So is one whose person is gone, was taken down, no longer has a worker profile, or is in
 * an account deletion's grace period (back if they keep the account).
 */
export const isListedPerson = (person: CatalogPerson | null | undefined): person is CatalogPerson =>
  isVisiblePerson(person) && person.isWorker && !isDeletionPending(person)
