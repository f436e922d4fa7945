import {
  MAX_SAVED_SEARCHES,
  SavedSearchQueryError,
  savedSearchCriteria,
  savedSearchQueryOf,
  type SavedSearchCriteria,
} from '@marketplace/contracts/marketplace'
import { BadRequestError } from '@marketplace/service-kit'

export const SavedSearchMessages = {
  nameRequired: 'Please give the search a name',
  nameTooLong: 'The name is too long (at most 80 characters)',
  limitReached: `You can keep at most ${MAX_SAVED_SEARCHES} saved searches. Delete one to save this search.`,
  notFound: 'Saved search not found',
  badLink:
    'This unsubscribe link is not valid. Open Settings, Saved searches to change your e-mails.',
} as const

const MAX_NAME_LENGTH = 80

export function readSavedSearchName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, ' ')
  if (trimmed === '') throw new BadRequestError(SavedSearchMessages.nameRequired, 'NAME_REQUIRED')
  if (trimmed.length > MAX_NAME_LENGTH)
    throw new BadRequestError(SavedSearchMessages.nameTooLong, 'NAME_TOO_LONG')
  return trimmed
}

/** The criteria and normalized query of the home page's URL query, or a 400 saying what is wrong. */
export function readSavedSearchQuery(query: string): {
  criteria: SavedSearchCriteria
  query: string
} {
  try {
    const criteria = savedSearchCriteria(query)
    return { criteria, query: savedSearchQueryOf(criteria) }
  } catch (error) {
    if (error instanceof SavedSearchQueryError)
      throw new BadRequestError(error.message, 'INVALID_SEARCH')
    throw error
  }
}
