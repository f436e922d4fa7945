/** What every feed item has: an id and a creation time, which fix its place in the feed. */
export interface FeedItem {
  _id: string
  createdAt: Date
}

/**
 * The feed's order: newest first, `_id` breaking ties (two items created in the same
 * millisecond keep one stable order across pages). "asc" reads the same lists backwards.
 */
export function feedOrder(a: FeedItem, b: FeedItem): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime()
  if (byTime !== 0) return byTime
  return a._id === b._id ? 0 : a._id < b._id ? 1 : -1
}
