import type { ContactVisibility } from '@marketplace/contracts/marketplace'
import type { LocatedPlace } from '@marketplace/geo'
import type { OutboxFields } from '@marketplace/service-kit'

export const PROFILES_COLLECTION = 'profiles'

export interface WorkerContact {
  value: string
  visibility: ContactVisibility
}

/** The worker profile: what makes a user a worker and lists them in the feed. */
export interface WorkerProfile {
  title: string
  skills: string[]
  availability: string
  /** A single text, unlike a post's list. */
  paymentType: string
  location: string
  /**
   * The location resolved by the gazetteer when the profile was saved; null when it is not a
   * known place; absent on profiles saved before distances (resolved from the text on load).
   */
  geo?: LocatedPlace | null
  infos: string
  contacts: WorkerContact[]
  /** A key under userImages/{userId}/ in the public bucket, or null for the default picture. */
  profilePicture: string | null
  /** The Online/Offline switch: offline workers leave the people feed. */
  isOnline: boolean
  /** Derived from title, then skills, with the keyword table shared with posts. */
  category: string
  /** Normalized words of the full name, title and skills: the search index's entries. */
  searchWords: string[]
}

/** The 30-day grace period after DELETE /api/users/{id}. */
export interface PendingDeletion {
  requestedAt: Date
  purgeAfter: Date
  /** Set by the purge that emitted user.deleted (claims it: one replica emits). */
  purgeStartedAt?: Date
}

/** One user's profile, keyed by the user id the auth service gave the account. */
export interface ProfileDocument extends OutboxFields {
  /**
   * Where the feed's Within control starts from, as the user typed it (a place the gazetteer
   * knows); absent when none is set (docs/distance.md).
   */
  homePlace?: string
  _id: string
  firstName: string
  lastName: string
  /** Private: only the user themself sees it. Copied from user.registered (never edited). */
  email: string
  /** Private: only the user themself sees it. */
  phoneNumber: string
  /** Private: others see the age computed from it, never the date. */
  dateOfBirth: string
  interest: 'Posts' | 'People' | 'Both' | null
  emailPreferences: boolean
  isWorker: boolean
  worker?: WorkerProfile | null
  /**
   * Who may see the worker's hidden contacts besides the worker: owners of posts the worker
   * requested, one entry "ownerId:jobRequestId" per request (job-request.created adds it,
   * job-request.deleted takes it away), so withdrawing one of two requests to the same owner
   * keeps the other's access. Never leaves the server.
   */
  contactViewers?: string[]
  deletion?: PendingDeletion | null
  /**
   * A moderator took the worker profile down (report.resolved): it leaves the people feed
   * and others no longer see it; the switch cannot bring it back.
   */
  takenDownAt?: Date | null
  /** When the profile was created (sign-up): the people feed's order, like a post's. */
  createdAt: Date
  updatedAt?: Date
  /** When user.registered was stored by auth: lets a replay keep the original. */
  registeredAt: Date
}

/** A profile in the people feed: a worker, online, and not waiting for deletion. */
export type ListedProfile = ProfileDocument & { worker: WorkerProfile }

export function isListed(profile: ProfileDocument): profile is ListedProfile {
  return (
    profile.isWorker &&
    !!profile.worker &&
    profile.worker.isOnline !== false &&
    !profile.deletion &&
    !profile.takenDownAt
  )
}

/** Whether `viewerId` may see the worker's hidden contacts. */
export function seesHiddenContacts(profile: ProfileDocument, viewerId: string | null): boolean {
  if (!viewerId) return false
  if (viewerId === profile._id) return true
  return (profile.contactViewers ?? []).some((entry) => entry.startsWith(`${viewerId}:`))
}

export function fullName(profile: Pick<ProfileDocument, 'firstName' | 'lastName'>): string {
  return `${profile.firstName} ${profile.lastName}`.trim()
}
