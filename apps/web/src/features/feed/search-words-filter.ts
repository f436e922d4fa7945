import type { JobPost, PersonView } from '@marketplace/contracts/api'
import { ALL_FILTER, wordsOf } from '@marketplace/contracts/marketplace'

type Filters = { category: string; location: string; payment: string; contact: string }

const same = (a: string | null | undefined, b: string) =>
  (a ?? '').toLowerCase() === b.toLowerCase()
const chosen = (value: string) => value.trim() !== '' && value !== ALL_FILTER

/** Every word of `filter` starts a word of `text` ("Austin" finds "Austin TX"). */
function wordsStart(text: string | null | undefined, filter: string): boolean {
  const words = wordsOf(text)
  return wordsOf(filter).every((part) => words.some((word) => word.startsWith(part)))
}

/**
 * The feed with search words (a saved search's `search`) asks the services' search, which
 * answers the newest matches near the place but reads no category or filter: those are
 * applied here, to the fields the card shows, as the saved search's alerts match them
 * (docs/saved-searches.md, "Matching").
 */
export function postMatchesFilters(post: JobPost, filters: Filters): boolean {
  return (
    (!chosen(filters.category) || same(post.category, filters.category)) &&
    (!chosen(filters.payment) || post.paymentType.some((type) => same(type, filters.payment))) &&
    (!chosen(filters.contact) || same(post.contact, filters.contact)) &&
    (!chosen(filters.location) || wordsStart(post.location, filters.location))
  )
}

/** The same for a worker: category, location, and the payment their free text names. */
export function personMatchesFilters(person: PersonView, filters: Filters): boolean {
  return (
    (!chosen(filters.category) || same(person.category, filters.category)) &&
    (!chosen(filters.payment) || wordsStart(person.paymentType, filters.payment)) &&
    (!chosen(filters.location) || wordsStart(person.location, filters.location))
  )
}
