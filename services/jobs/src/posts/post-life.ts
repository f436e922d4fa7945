import {
  EXPIRY_WARNING_DAYS,
  RELIST_DAYS,
  type PostState,
} from '@marketplace/contracts/marketplace'
import type { PostDocument } from './post-document'

const DAY_MS = 24 * 60 * 60 * 1000
const WARNING_MS = EXPIRY_WARNING_DAYS * DAY_MS

/**
 * A post's state as its owner sees it (My Posts). A moderator's take-down and an owner's
 * deletion grace period read as offline: the post is out of sight and the owner cannot bring
 * it back by relisting. Filled comes before expired: the owner's own word is the reason.
 */
export function postState(
  post: Pick<PostDocument, 'isOnline' | 'takenDown' | 'ownerLeaving' | 'filledAt' | 'expiresAt'>,
  now = new Date(),
): PostState {
  if (post.takenDown || post.ownerLeaving === true) return 'offline'
  if (post.filledAt) return 'filled'
  if (post.expiresAt && post.expiresAt <= now) return 'expired'
  if (!post.isOnline) return 'offline'
  if (post.expiresAt && post.expiresAt.getTime() - now.getTime() <= WARNING_MS)
    return 'expiring-soon'
  return 'live'
}

/** The states a relist is for: the post is closed, or about to be. */
export const RELISTABLE_STATES: readonly PostState[] = ['filled', 'expired', 'expiring-soon']

/**
 * When the post's next life notice is due: the warning EXPIRY_WARNING_DAYS before it expires
 * (at once when it was published closer to its end than that), then, once warned, the expiry
 * itself; null when nothing is left to tell (no expiry, filled, or the expiry told).
 */
export function nextLifeNoticeAt(
  post: Pick<PostDocument, 'expiresAt' | 'filledAt' | 'expiryWarnedFor' | 'expiryClosedFor'>,
): Date | null {
  const expiresAt = post.expiresAt
  if (!expiresAt || post.filledAt) return null
  const same = (at: Date | undefined) => at !== undefined && at.getTime() === expiresAt.getTime()
  if (same(post.expiryClosedFor)) return null
  if (same(post.expiryWarnedFor)) return expiresAt
  return new Date(expiresAt.getTime() - WARNING_MS)
}

/** The last day of a post relisted at `now`: RELIST_DAYS ahead, 'YYYY-MM-DD' (UTC). */
export function relistExpirationDate(now: Date): string {
  return new Date(now.getTime() + RELIST_DAYS * DAY_MS).toISOString().slice(0, 10)
}
