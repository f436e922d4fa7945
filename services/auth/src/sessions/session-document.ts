import type { IndexDefinition } from '@marketplace/service-kit'

export const SESSIONS = 'sessions'
/**
 * Insert-only facts about sessions: `spent:<tokenHash>` (this refresh token was used) and
 * `revoked:<familyId>`. FerretDB v1 applies updates as read-modify-write without locking
 * (measured: 50 parallel $inc on one document leave +10; docs/local-infrastructure.md), so a
 * conditional update cannot decide which of two parallel renewals wins, and a revocation
 * written by $set could be overwritten by a concurrent rotation. A unique _id can: exactly
 * one insert of a given _id succeeds, on FerretDB and MongoDB alike.
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
  rotatedAt: Date
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
  { collection: SESSIONS, keys: { userId: 1 }, options: { name: 'user' } },
  { collection: SESSIONS, keys: { expiresAt: 1 }, options: { name: 'expires' } },
  { collection: SESSION_MARKERS, keys: { userId: 1 }, options: { name: 'user' } },
  { collection: SESSION_MARKERS, keys: { expiresAt: 1 }, options: { name: 'expires' } },
]
