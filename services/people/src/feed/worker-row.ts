import { locatePlaceCached } from '@marketplace/geo'
import {
  NO_POINT,
  packTexts,
  unpackTexts,
  type ColumnarSchema,
  type FeedRow,
} from '@marketplace/read-models/feed'
import { isListed, type ProfileDocument, type WorkerContact } from '../profiles/profile-document'
import { contactOptionsOf, paymentOptionsIn, workerSearchWords } from '../profiles/worker-fields'
import type { RatedProfile } from '../ratings/rating-views'

/**
 * A listed worker as the people feed holds it: what their card shows to everyone (docs/people.md,
 * "What a stranger sees"), and the date of birth the card's age is computed from each day. Never
 * the e-mail, the phone number nor a hidden contact: a viewer who may see those gets the profile
 * read again by `_id` (people-feed.ts).
 *
 * Shared columns (each distinct value held once): names, title, skills, availability, payment
 * type, location, category, date of birth. Numbers: the rating's sum and count, flags. Text:
 * infos, the picture key, the public contacts' values.
 */
const SHARED = [
  'firstName',
  'lastName',
  'title',
  'skills',
  'availability',
  'paymentType',
  'location',
  'category',
  'dateOfBirth',
] as const
// lat, lon: the worker's place (the location is public), NO_POINT when it is not a known place.
const NUMBERS = ['ratingSum', 'ratingCount', 'flags', 'lat', 'lon'] as const

/** The worker has contacts only insiders see: an insider's card is read from the database. */
export const HAS_HIDDEN_CONTACTS = 1
const HAS_PICTURE = 2

/** The feed's row for a profile, or null when the profile is not listed. */
export function workerRow(profile: ProfileDocument): FeedRow | null {
  if (!isListed(profile)) return null
  const { worker } = profile
  const rated = profile as RatedProfile
  // Resolved when saved; a profile saved before distances is resolved from its text here.
  const geo = worker.geo !== undefined ? worker.geo : locatePlaceCached(worker.location)
  const contacts = worker.contacts.filter((contact) => contact.visibility === 'public')
  const flags =
    (contacts.length < worker.contacts.length ? HAS_HIDDEN_CONTACTS : 0) |
    (worker.profilePicture !== null ? HAS_PICTURE : 0)
  return {
    id: profile._id,
    createdAt: profile.createdAt.getTime(),
    expiresAt: null,
    shared: [
      profile.firstName,
      profile.lastName,
      worker.title,
      worker.skills.length === 0 ? '' : packTexts(worker.skills),
      worker.availability,
      worker.paymentType,
      worker.location,
      worker.category,
      profile.dateOfBirth,
    ],
    numbers: [
      rated.ratingSum ?? 0,
      rated.ratingCount ?? 0,
      flags,
      geo?.lat ?? NO_POINT,
      geo?.lon ?? 0,
    ],
    text: packTexts([
      worker.infos,
      worker.profilePicture ?? '',
      ...contacts.map((contact) => contact.value),
    ]),
  }
}

/** Whether a row's worker has contacts only insiders see. */
export function hasHiddenContacts(row: FeedRow): boolean {
  return (row.numbers[2]! & HAS_HIDDEN_CONTACTS) !== 0
}

/**
 * The profile as everyone may see it, rebuilt from its row, for `toPersonView(profile, null)`:
 * no e-mail, phone number, hidden contact nor contact viewer (they are not in the row).
 */
export function publicProfile(row: FeedRow): RatedProfile {
  const [
    firstName,
    lastName,
    title,
    skills,
    availability,
    paymentType,
    location,
    category,
    dateOfBirth,
  ] = row.shared as string[]
  const [ratingSum, ratingCount, flags] = row.numbers as [number, number, number]
  const [infos, profilePicture, ...contactValues] = unpackTexts(row.text)
  const createdAt = new Date(row.createdAt)
  const contacts: WorkerContact[] = contactValues.map((value) => ({ value, visibility: 'public' }))
  return {
    _id: row.id,
    firstName: firstName!,
    lastName: lastName!,
    email: '',
    phoneNumber: '',
    dateOfBirth: dateOfBirth!,
    interest: null,
    emailPreferences: false,
    isWorker: true,
    worker: {
      title: title!,
      skills: skills === '' ? [] : unpackTexts(skills!),
      availability: availability!,
      paymentType: paymentType!,
      location: location!,
      infos: infos!,
      contacts,
      profilePicture: flags & HAS_PICTURE ? profilePicture! : null,
      isOnline: true,
      category: category!,
      searchWords: [],
    },
    contactViewers: [],
    deletion: null,
    takenDownAt: null,
    createdAt,
    registeredAt: createdAt,
    ...(ratingCount > 0 ? { ratingSum, ratingCount } : {}),
  }
}

/**
 * What a worker answers to in the people feed (docs/people.md): category, location as
 * written, the payment options named in the payment type, and the kinds of the public
 * contacts. Hidden contacts answer to nothing (the row holds none): the filter would reveal
 * them. Search: the full name, the title and the skills.
 */
export const workerFeedSchema: ColumnarSchema = {
  shared: SHARED,
  numbers: NUMBERS,
  filterValues(row) {
    const worker = publicProfile(row).worker!
    const values: Array<[string, string]> = [['category', worker.category]]
    if (worker.location) values.push(['location', worker.location])
    for (const option of paymentOptionsIn(worker.paymentType)) values.push(['payment', option])
    for (const option of contactOptionsOf(worker.contacts)) values.push(['contact', option])
    return values
  },
  searchWords(row) {
    const [firstName, lastName, title, skills] = row.shared as string[]
    return workerSearchWords(
      { firstName: firstName!, lastName: lastName! },
      { title: title!, skills: skills === '' ? [] : unpackTexts(skills!) },
    )
  },
  point: { lat: 3, lon: 4 },
  // Bumped when what a row holds changes (2: the point), so older snapshots are rebuilt.
  version: 'people-feed-2',
}
