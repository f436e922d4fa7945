import type { IndexDefinition } from '@marketplace/service-kit'

export const SESSIONS = 'sessions'
/**
 * Insert-only facts about sessions: `revoked:<familyId>` (and, from before renewals recorded
 * their successor on the family itself, `spent:<tokenHash>`, left for housekeeping). A unique
 * _id makes a revocation a fact no later write can undo: exactly one insert of a given _id
 * succeeds, and nothing updates it.
 */
export const SESSION_MARKERS = 'session_markers'

export interface SessionMarkerDoc {
  _id: string
  familyId: string
  userId: string
  /** The family's end: the marker is useless afterwards (housekeeping). */
  expiresAt: Date
}

/**
 * One refresh-token family: a login and every token rotated from it. Only the hash of the
 * current secret is kept; presenting any other secret for a live family is reuse.
 */
export interface SessionDoc {
  _id: string
  userId: string
  tokenHash: string
  /** "Keep me signed in": a cookie that outlives the browser, up to the absolute lifetime. */
  persistent: boolean
  createdAt: Date
  /** Absolute lifetime: no rotation extends it. */
  expiresAt: Date
  /** When the current secret replaced the previous one. */
  rotatedAt: Date
  /**
   * The secret spent by the last renewal, whose successor is the current one: presented again
   * within the grace window it answers that same successor (two tabs renewing at once);
   * later, it is reuse. Absent on families renewed before the window existed.
   */
  previousTokenHash?: string | null
  generation: number
  revokedAt: Date | null
  revokedReason: string | null
}

export type RevokeReason =
  | 'logout'
  | 'reuse-detected'
  | 'password-changed'
  | 'password-reset'
  | 'deletion-requested'
  | 'account-unavailable'

export const sessionIndexes: IndexDefinition[] = [
  // A user's live sessions (revokedAt: null): every field of that filter is in the key.
  { collection: SESSIONS, keys: { userId: 1, revokedAt: 1 }, options: { name: 'user_live' } },
  { collection: SESSIONS, keys: { expiresAt: 1 }, options: { name: 'expires' } },
  { collection: SESSION_MARKERS, keys: { userId: 1 }, options: { name: 'user' } },
  { collection: SESSION_MARKERS, keys: { expiresAt: 1 }, options: { name: 'expires' } },
]
