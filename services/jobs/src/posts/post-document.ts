import { locatePlaceCached, type LocatedPlace } from '@marketplace/geo'
import type { OutboxFields } from '@marketplace/service-kit'

/** The posts collection of the jobs service: one document per post, the source of truth. */
export const POSTS_COLLECTION = 'posts'

/**
 * A post as stored. Field names follow the API so a document maps
 * onto a response without renaming; `_id` is an ObjectId in hex, like every id we issue.
 */
export interface PostDocument extends OutboxFields {
  _id: string
  /** The owner. */
  userID: string
  title: string
  location: string
  /** Free text "when" (the form's `when`). */
  jobStartEnd: string
  /** Free text "how much" (the form's `howmuch`). */
  salary: string
  paymentType: string[]
  /** The contact method: an option of the contact list, or '' for none. Public. */
  contact: string
  /**
   * How to reach the owner by `contact`, normalized (contracts' contact-value.ts): '' for
   * none. Absent on posts created before contact values; read as ''.
   */
  contactValue?: string
  infos: string
  /** false: location is only for the owner and authorized users. */
  displayLocation: boolean
  /** false: the contact value is only for the owner and authorized users. */
  displayContact: boolean
  /** Object key under jobImages/{userID}/, or null. */
  jobPicture: string | null
  category: string
  /**
   * true when the owner chose the category; false when it was guessed from the
   * words, and is then guessed again when the infos change.
   */
  categoryExplicit: boolean
  isOnline: boolean
  /** Taken down by a moderator (report.resolved): gone for everyone but the owner. */
  takenDown: boolean
  /**
   * The owner asked to delete the account and is in the 30-day grace period: the post is
   * gone for everyone else until they keep the account (absent: false).
   */
  ownerLeaving?: boolean
  /** The last day the post is live, 'YYYY-MM-DD' (it leaves the feed after that day, UTC). */
  expirationDate: string | null
  /** End of the expiration day (UTC) as an instant, for comparisons; null when none. */
  expiresAt: Date | null
  /**
   * When the owner marked the post filled: closed to requests and out of the feed, its
   * conversations kept; absent or null while it is not (docs/posts.md, "The life of a post").
   */
  filledAt?: Date | null
  /** The owner's last relist (a post is relisted at most once a day). */
  relistedAt?: Date
  /**
   * When the post's next life notice is due: the expiry warning, then the expiry's own notice
   * to its pending requesters; null or absent when none is (no expiry, filled, both told).
   * The sweep finds due posts by it and claims one by setting it forward (post-life.ts).
   */
  lifeNoticeAt?: Date | null
  /** The expiry instant whose warning the owner was sent. */
  expiryWarnedFor?: Date
  /** The expiry instant whose notice the pending requesters were sent. */
  expiryClosedFor?: Date
  /**
   * The location resolved by the gazetteer when the post was saved: the place and its town's
   * point; null when the gazetteer does not know it (no distance). Absent on posts saved before
   * distances: resolved from the text when the feed loads them (docs/distance.md).
   */
  geo?: LocatedPlace | null
  /** Normalized words of title and infos (lower case, no accents), for search. */
  searchWords: string[]
  createdAt: Date
  updatedAt: Date
}

/**
 * Whether `viewerId` sees everything of the post: the owner, or a user in `authorizedUsers`
 * (the post's grants, src/access/post-access.ts).
 */
export function seesPrivateFields(
  post: Pick<PostDocument, 'userID'>,
  viewerId: string | null | undefined,
  authorizedUsers: readonly string[],
): boolean {
  if (!viewerId) return false
  return post.userID === viewerId || authorizedUsers.includes(viewerId)
}

/**
 * Live = shown in the feed and open to requests: online, not taken down, its owner not in a
 * deletion's grace period, not filled, not expired.
 */
export function isLive(
  post: Pick<PostDocument, 'isOnline' | 'takenDown' | 'expiresAt' | 'ownerLeaving' | 'filledAt'>,
  now = new Date(),
): boolean {
  return (
    post.isOnline &&
    !post.takenDown &&
    post.ownerLeaving !== true &&
    !post.filledAt &&
    (post.expiresAt === null || post.expiresAt > now)
  )
}

/** Whether anyone but the owner may see the post at all (details, lists of others). */
export function isShownToOthers(post: Pick<PostDocument, 'takenDown' | 'ownerLeaving'>): boolean {
  return !post.takenDown && post.ownerLeaving !== true
}

/**
 * The point everyone may know of a post: its own when the location is shown, its town's when
 * the location is private until acceptance; undefined when the location is not a known place.
 */
export function publicPointOf(
  post: Pick<PostDocument, 'geo' | 'location' | 'displayLocation'>,
): { lat: number; lon: number; town?: true } | undefined {
  const geo = geoOf(post)
  if (!geo) return undefined
  return post.displayLocation
    ? { lat: geo.lat, lon: geo.lon }
    : { lat: geo.cityLat, lon: geo.cityLon, town: true }
}

/** The post's resolved location: stored when saved, else resolved from the text (older posts). */
export function geoOf(post: Pick<PostDocument, 'geo' | 'location'>): LocatedPlace | null {
  return post.geo !== undefined ? post.geo : locatePlaceCached(post.location)
}
