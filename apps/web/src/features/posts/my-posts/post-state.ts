import type { JobPost } from '@marketplace/contracts/api'
import type { PostState } from '@marketplace/contracts/marketplace'

/** How My Posts names each state of a post (docs/posts.md, "The life of a post"). */
export const STATE_LABELS: Record<PostState, string> = {
  live: 'Live',
  'expiring-soon': 'Expiring soon',
  offline: 'Offline',
  expired: 'Expired',
  filled: 'Filled',
}

export type StateFilter = 'all' | PostState

export const STATE_OPTIONS: ReadonlyArray<readonly [StateFilter, string]> = [
  ['all', 'All'],
  ['live', STATE_LABELS.live],
  ['expiring-soon', STATE_LABELS['expiring-soon']],
  ['offline', STATE_LABELS.offline],
  ['expired', STATE_LABELS.expired],
  ['filled', STATE_LABELS.filled],
]

/** The post's state as the server says; from the switch alone for a server that says none. */
export const stateOf = (post: JobPost): PostState =>
  post.state ?? (post.isOnline ? 'live' : 'offline')

/** Relisting is for a post that is closed, or about to be. */
export const canRelist = (post: JobPost) =>
  !post.takenDown && ['filled', 'expired', 'expiring-soon'].includes(stateOf(post))

/** A post not filled (nor taken down) can be marked filled. */
export const canFill = (post: JobPost) => !post.takenDown && stateOf(post) !== 'filled'
