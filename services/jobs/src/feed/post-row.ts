import { distinctWords } from '@marketplace/contracts/marketplace'
import {
  NO_POINT,
  packTexts,
  unpackTexts,
  type ColumnarSchema,
  type FeedRow,
} from '@marketplace/read-models/feed'
import { isLive, publicPointOf, type PostDocument } from '../posts/post-document'

/**
 * A live post as the feed holds it: its public card's values only. What the owner hid (the
 * location, the contact's method and value) is never in the feed's memory nor in its
 * snapshots; an insider (the owner, an authorized user) gets the post read again by `_id`
 * (post-json.ts).
 *
 * Shared columns (each distinct value held once): the owner, the location shown (empty when
 * hidden), the contact method shown (empty when hidden), the category, the payment list, the
 * expiration day. Numbers: the update time, the flags and the point everyone may know (the
 * post's own when the location is shown, its town's when it is private: docs/distance.md;
 * NO_POINT when the location is not a known place). Text: title, infos, when, how much,
 * the picture key and the contact value shown (empty when hidden).
 */
const SHARED = [
  'userID',
  'location',
  'contact',
  'category',
  'paymentType',
  'expirationDate',
] as const
// The update time as milliseconds after creation: 0 for a post never edited (one digit in
// a snapshot instead of thirteen).
const NUMBERS = ['updatedAfter', 'flags', 'lat', 'lon'] as const

const DISPLAY_LOCATION = 1
const DISPLAY_CONTACT = 2
const HAS_PICTURE = 8

/** The feed's row for a post, or null when the post is not in the feed at `now`. */
export function postRow(post: PostDocument, now = new Date()): FeedRow | null {
  if (!isLive(post, now)) return null
  const flags =
    (post.displayLocation ? DISPLAY_LOCATION : 0) |
    (post.displayContact ? DISPLAY_CONTACT : 0) |
    (post.jobPicture !== null ? HAS_PICTURE : 0)
  const point = publicPointOf(post)
  return {
    id: post._id,
    createdAt: post.createdAt.getTime(),
    expiresAt: post.expiresAt ? post.expiresAt.getTime() : null,
    shared: [
      post.userID,
      post.displayLocation ? post.location : '',
      post.displayContact ? post.contact : '',
      post.category,
      post.paymentType.join('\u0000'),
      post.expirationDate ?? '',
    ],
    numbers: [
      post.updatedAt.getTime() - post.createdAt.getTime(),
      flags,
      point?.lat ?? NO_POINT,
      point?.lon ?? 0,
    ],
    text: packTexts([
      post.title,
      post.infos,
      post.jobStartEnd,
      post.salary,
      post.jobPicture ?? '',
      post.displayContact ? (post.contactValue ?? '') : '',
    ]),
  }
}

/**
 * The post as a guest sees it, rebuilt from its row, for `toPostView(post, null)`: hidden
 * values are absent (an empty location and contact).
 */
export function publicPost(row: FeedRow): PostDocument {
  const [userID, location, contact, category, paymentType, expirationDate] = row.shared as string[]
  const [updatedAfter, flags] = row.numbers as [number, number]
  const [title, infos, jobStartEnd, salary, jobPicture, contactValue] = unpackTexts(row.text) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ]
  const createdAt = new Date(row.createdAt)
  return {
    _id: row.id,
    userID: userID!,
    title,
    location: location!,
    jobStartEnd,
    salary,
    paymentType: paymentType === '' ? [] : paymentType!.split('\u0000'),
    contact: contact!,
    contactValue,
    infos,
    displayLocation: (flags & DISPLAY_LOCATION) !== 0,
    displayContact: (flags & DISPLAY_CONTACT) !== 0,
    jobPicture: flags & HAS_PICTURE ? jobPicture : null,
    category: category!,
    categoryExplicit: false,
    isOnline: true,
    takenDown: false,
    ownerLeaving: false,
    expirationDate: expirationDate === '' ? null : expirationDate!,
    expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt),
    searchWords: [],
    createdAt,
    updatedAt: updatedAfter === 0 ? createdAt : new Date(row.createdAt + updatedAfter),
  }
}

/**
 * What a post answers to in the feed. A filter on location or contact never matches a post
 * whose owner hid it: the answer would reveal the hidden value (the row holds none). Search
 * words are those of title and infos, as derivedFields stores them,
 * computed from the row so that adding and removing a row always name the same words.
 */
export const postFeedSchema: ColumnarSchema = {
  shared: SHARED,
  numbers: NUMBERS,
  filterValues(row) {
    const [, location, contact, category, paymentType] = row.shared as string[]
    const values: Array<[string, string]> = [['category', category!]]
    if (location) values.push(['location', location])
    if (contact) values.push(['contact', contact])
    if (paymentType)
      for (const payment of paymentType.split('\u0000')) values.push(['payment', payment])
    return values
  },
  searchWords(row) {
    const [title, infos] = unpackTexts(row.text)
    return distinctWords(title, infos)
  },
  point: { lat: 2, lon: 3 },
  // Bumped when what a row holds changes, so older snapshots are rebuilt rather than loaded
  // (version 2: a hidden contact's method is no longer held; 3: the point).
  version: 'jobs-feed-3',
}

/** Whether the row's location is shown to everyone (else its point is its town's). */
export function locationShown(row: Pick<FeedRow, 'numbers'>): boolean {
  return ((row.numbers[1] ?? 0) & DISPLAY_LOCATION) !== 0
}

/** The owner of a row (who sees the post's hidden fields). */
export function ownerOf(row: Pick<FeedRow, 'shared'>): string {
  return row.shared[0]!
}
