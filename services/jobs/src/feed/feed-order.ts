import type { PostDocument } from '../posts/post-document'

/**
 * The feed's order: newest first, `_id` breaking ties (two posts created in the same
 * millisecond keep one stable order across pages). "asc" reads the same lists backwards.
 */
export function feedOrder(a: PostDocument, b: PostDocument): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime()
  if (byTime !== 0) return byTime
  return a._id === b._id ? 0 : a._id < b._id ? 1 : -1
}

/** A list kept in feed order; insert and remove find their place by binary search. */
export class OrderedPosts {
  readonly items: PostDocument[] = []

  get length(): number {
    return this.items.length
  }

  /** Index of the first item not before `post` in feed order. */
  private lowerBound(post: PostDocument): number {
    let low = 0
    let high = this.items.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (feedOrder(this.items[middle]!, post) < 0) low = middle + 1
      else high = middle
    }
    return low
  }

  insert(post: PostDocument): void {
    const at = this.lowerBound(post)
    if (this.items[at]?._id === post._id) this.items[at] = post
    else this.items.splice(at, 0, post)
  }

  remove(post: PostDocument): void {
    const at = this.lowerBound(post)
    if (this.items[at]?._id === post._id) this.items.splice(at, 1)
  }

  /** Bulk load: append without order, then sort once (n log n instead of n² splices). */
  push(post: PostDocument): void {
    this.items.push(post)
  }

  sort(): void {
    this.items.sort(feedOrder)
  }
}
