import type { JobPost, PersonView } from '@marketplace/contracts/api'
import type { FeedItem } from '@/features/feed/feed-slice'

/**
 * A search result as the product's contract describes it: a post or a person, any field
 * possibly missing. A JobPost or a PersonView is one; `description` is a name the spec reads
 * that neither service sends.
 */
export interface RawSearchResult {
  _id: string
  title?: string | null
  description?: string | null
  infos?: string | null
  firstName?: string | null
  lastName?: string | null
  name?: string | null
  category?: string | null
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')
const lower = (value: unknown): string => text(value).trim().toLowerCase()
const fullName = (result: RawSearchResult): string =>
  [text(result.firstName).trim(), text(result.lastName).trim()].filter(Boolean).join(' ')

/** A post has a title and no first or last name; anything else is a person. */
export function isPostResult(result: RawSearchResult): boolean {
  return (
    !!text(result.title).trim() && !text(result.firstName).trim() && !text(result.lastName).trim()
  )
}

/** Title, else first and last name, else name, else "Untitled". */
export function resultLabel(result: RawSearchResult): string {
  return text(result.title).trim() || fullName(result) || text(result.name).trim() || 'Untitled'
}

/** A person's name: first and last name, else name. */
export function personLabel(result: RawSearchResult): string {
  return fullName(result) || text(result.name).trim()
}

function exactFields(result: RawSearchResult): string[] {
  if (isPostResult(result)) return [lower(result.title)]
  return [fullName(result).toLowerCase(), lower(result.title), lower(result.name)]
}

function partialFields(result: RawSearchResult): string[] {
  if (isPostResult(result)) {
    return [lower(result.title), lower(result.description), lower(result.infos)]
  }
  return [
    fullName(result).toLowerCase(),
    lower(result.firstName),
    lower(result.lastName),
    lower(result.title),
    lower(result.name),
  ]
}

/**
 * Exact case-insensitive matches first (post title; person full name,
 * title or name); only when there are none, partial matches (post title or description;
 * person full name, first name, last name, title or name).
 */
export function filterSearchResults<T extends RawSearchResult>(results: T[], query: string): T[] {
  const wanted = query.trim().toLowerCase()
  if (!wanted) return []
  const exact = results.filter((result) => exactFields(result).includes(wanted))
  if (exact.length > 0) return exact
  return results.filter((result) =>
    partialFields(result).some((field) => field !== '' && field.includes(wanted)),
  )
}

const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []

/** Missing fields are filled with empty text or empty lists. */
export function toSelection(result: RawSearchResult): FeedItem {
  if (isPostResult(result)) {
    const post = result as Partial<JobPost> & RawSearchResult
    return {
      type: 'job',
      item: {
        ...post,
        _id: result._id,
        jobID: text(post.jobID),
        userID: text(post.userID),
        title: text(post.title),
        location: post.location === null ? null : text(post.location),
        jobStartEnd: text(post.jobStartEnd),
        salary: text(post.salary),
        paymentType: list(post.paymentType),
        contact: post.contact === null ? null : text(post.contact),
        infos: text(post.infos) || text(result.description),
        displayLocation: post.displayLocation ?? false,
        displayContact: post.displayContact ?? false,
        jobPicture: post.jobPicture ?? null,
        category: text(post.category),
        isOnline: post.isOnline !== false,
        expirationDate: post.expirationDate ?? null,
        authorizedUsers: list(post.authorizedUsers),
        createdAt: text(post.createdAt),
        updatedAt: text(post.updatedAt),
      },
    }
  }
  const person = result as Partial<PersonView> & RawSearchResult
  return {
    type: 'worker',
    item: {
      ...person,
      _id: result._id,
      firstName: text(person.firstName),
      lastName: text(person.lastName),
      name: text(person.name),
      age: typeof person.age === 'number' ? person.age : null,
      isWorker: person.isWorker ?? true,
      title: text(person.title),
      skills: list(person.skills),
      availability: text(person.availability),
      paymentType: text(person.paymentType),
      location: text(person.location),
      infos: text(person.infos),
      contacts: Array.isArray(person.contacts) ? person.contacts : [],
      profilePicture: person.profilePicture ?? null,
      isOnline: person.isOnline !== false,
      category: person.category ?? null,
    },
  }
}
