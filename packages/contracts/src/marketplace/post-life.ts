/**
 * The life of a post after it is published (docs/posts.md, "The life of a post"): its owner
 * is warned before it expires, can mark it filled, and can relist it for another stretch.
 */

/** The owner is warned this many days before the post leaves the feed. */
export const EXPIRY_WARNING_DAYS = 3
/** A relisted post stays live through the day this many days ahead (UTC). */
export const RELIST_DAYS = 30
/** A post is relisted at most once in this long. */
export const RELIST_INTERVAL_MS = 24 * 60 * 60 * 1000

/**
 * A post's state as its owner sees it in My Posts. `filled`: the owner marked it filled;
 * `expired`: past its last day; `offline`: switched off (or taken down by a moderator);
 * `expiring-soon`: live, and within the warning's days of its end; `live`: in the feed.
 */
export const POST_STATES = ['live', 'expiring-soon', 'offline', 'expired', 'filled'] as const
export type PostState = (typeof POST_STATES)[number]

/** The link of the expiry warning: My Posts, with the post whose relist it offers. */
export const relistLink = (myPostsPath: string, postId: string) =>
  `${myPostsPath}?relist=${encodeURIComponent(postId)}`
