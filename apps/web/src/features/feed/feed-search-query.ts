import type { FeedState } from '@/features/feed/feed-slice'

/**
 * The home page's state as the URL query a saved search keeps (docs/saved-searches.md):
 * feed type, category and the filters that are not "All". Keys the feed state does not hold
 * (a distance, search words) are added by their owners when the state holds them.
 */
export function feedSearchQuery(
  feed: Pick<FeedState, 'feedType' | 'category' | 'location' | 'payment' | 'contact'> & {
    near?: string
    within?: number | string
    search?: string
  },
): string {
  const params = new URLSearchParams({ feed: feed.feedType })
  // A distance means something only with its place (the feed's Within control: an empty
  // place is any distance).
  const near = feed.near?.trim() ?? ''
  const values = {
    ...feed,
    near,
    within: near && feed.within !== undefined ? String(feed.within) : '',
  }
  for (const key of [
    'category',
    'location',
    'payment',
    'contact',
    'near',
    'within',
    'search',
  ] as const) {
    const value = values[key]?.trim()
    if (value && value !== 'All') params.set(key, value)
  }
  return params.toString()
}

/** A name to start from: what the search is about, in words. */
export function suggestedSearchName(
  feed: Pick<FeedState, 'feedType' | 'category' | 'location' | 'payment' | 'contact'>,
): string {
  const what =
    feed.category !== 'All' ? feed.category : feed.feedType === 'job' ? 'Jobs' : 'Workers'
  const where = feed.location !== 'All' && feed.location.trim() ? ` in ${feed.location.trim()}` : ''
  return `${what}${where}`
}
