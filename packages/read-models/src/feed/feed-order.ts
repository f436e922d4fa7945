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

/** A list kept in feed order; insert and remove find their place by binary search. */
export class OrderedList<T extends FeedItem> {
  readonly items: T[] = []

  get length(): number {
    return this.items.length
  }

  /** Index of the first item not before `item` in feed order. */
  private lowerBound(item: FeedItem): number {
    let low = 0
    let high = this.items.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (feedOrder(this.items[middle]!, item) < 0) low = middle + 1
      else high = middle
    }
    return low
  }

  insert(item: T): void {
    const at = this.lowerBound(item)
    if (this.items[at]?._id === item._id) this.items[at] = item
    else this.items.splice(at, 0, item)
  }

  remove(item: FeedItem): void {
    const at = this.lowerBound(item)
    if (this.items[at]?._id === item._id) this.items.splice(at, 1)
  }

  /** Bulk load: append without order, then sort once (n log n instead of n² splices). */
  push(item: T): void {
    this.items.push(item)
  }

  sort(): void {
    this.items.sort(feedOrder)
  }
}
