/** The home feed's words, shared by the page and its outline. */
export const FEED_TEXTS = {
  job: {
    loading: 'Loading posts...',
    error: 'Failed to fetch jobs. Please try again.',
    empty: 'No posts found.',
    back: 'Show all posts',
    toggle: 'Posts',
    matching: 'Posts matching',
  },
  worker: {
    loading: 'Loading workers...',
    error: 'Failed to fetch workers. Please try again.',
    empty: 'No people found.',
    back: 'Show all people',
    toggle: 'People',
    matching: 'People matching',
  },
} as const
