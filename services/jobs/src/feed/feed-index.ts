import { isLive, type PostDocument } from '../posts/post-document'
import { CATEGORIES, UNCATEGORIZED } from '../posts/categories'
import { OrderedPosts, feedOrder } from './feed-order'

export interface FeedFilters {
  category?: string
  location?: string
  payment?: string
  contact?: string
}

export interface FeedQuery extends FeedFilters {
  page: number
  pageSize: number
  sort: 'desc' | 'asc'
}

export interface FeedPage {
  posts: PostDocument[]
  total: number
}

type FilterName = keyof FeedFilters

/**
 * The live posts, held in memory and kept in feed order per filter value, so a page of the
 * feed, a category count or a search costs about the same at 100,000 posts as at 100
 * (docs/posts.md explains why the database is not asked: FerretDB pushes down neither
 * filters nor sorts). The database stays the source of truth; `FeedSync` loads this index
 * from it and applies every change.
 *
 * A filter on location or contact never matches a post whose owner hid that field: the
 * answer would reveal the hidden value.
 */
export class FeedIndex {
  private readonly byId = new Map<string, PostDocument>()
  private readonly all = new OrderedPosts()
  /** "category\u0000Moving" → the live posts with that value, in feed order. */
  private readonly byFilter = new Map<string, OrderedPosts>()
  /** Search: word → live posts containing it; `vocabulary` sorted for prefix ranges. */
  private readonly byWord = new Map<string, OrderedPosts>()
  private vocabulary: string[] = []
  private vocabularyDirty = false
  /** The earliest expiry among indexed posts: nothing to sweep before it. */
  private nextExpiry = Infinity

  constructor(private readonly now: () => Date = () => new Date()) {}

  get size(): number {
    this.sweepExpired()
    return this.all.length
  }

  /** Replaces the whole content (start-up load); `posts` in any order. */
  load(posts: Iterable<PostDocument>): void {
    this.byId.clear()
    this.all.items.length = 0
    this.byFilter.clear()
    this.byWord.clear()
    this.nextExpiry = Infinity
    const now = this.now()
    for (const post of posts) {
      if (!isLive(post, now)) continue
      this.byId.set(post._id, post)
      this.all.push(post)
      for (const key of filterKeys(post)) listOf(this.byFilter, key).push(post)
      for (const word of post.searchWords) listOf(this.byWord, word).push(post)
      this.noteExpiry(post)
    }
    this.all.sort()
    for (const list of this.byFilter.values()) list.sort()
    for (const list of this.byWord.values()) list.sort()
    this.vocabulary = [...this.byWord.keys()].sort()
    this.vocabularyDirty = false
  }

  /** Applies the current state of one post: indexed when live, removed otherwise. */
  apply(postId: string, post: PostDocument | null): void {
    const previous = this.byId.get(postId)
    if (previous) this.removeEntry(previous)
    if (post && isLive(post, this.now())) this.addEntry(post)
  }

  page(query: FeedQuery): FeedPage {
    this.sweepExpired()
    const active = activeFilters(query)
    const lists = active.map(([name, value]) => this.byFilter.get(filterKey(name, value)))
    if (lists.some((list) => list === undefined)) return { posts: [], total: 0 }
    // Walk the shortest list and test the other filters on each post.
    const source = (lists as OrderedPosts[]).reduce<OrderedPosts>(
      (shortest, list) => (list.length < shortest.length ? list : shortest),
      this.all,
    )
    const items = source.items
    const start = (query.page - 1) * query.pageSize
    const at = (i: number) => (query.sort === 'asc' ? items[items.length - 1 - i]! : items[i]!)
    if (active.length <= 1) {
      const posts: PostDocument[] = []
      for (let i = start; i < Math.min(start + query.pageSize, items.length); i += 1)
        posts.push(at(i))
      return { posts, total: items.length }
    }
    const posts: PostDocument[] = []
    let total = 0
    for (let i = 0; i < items.length; i += 1) {
      const post = at(i)
      if (!active.every(([name, value]) => matches(post, name, value))) continue
      if (total >= start && posts.length < query.pageSize) posts.push(post)
      total += 1
    }
    return { posts, total }
  }

  /** Live posts per category; the counts equal what the feed returns for each category. */
  categoryCounts(): Record<string, number> {
    this.sweepExpired()
    const counts: Record<string, number> = {}
    for (const category of CATEGORIES) {
      counts[category] = this.byFilter.get(filterKey('category', category))?.length ?? 0
    }
    // A category chosen explicitly is always one of CATEGORIES (post-input checks it).
    counts[UNCATEGORIZED] ??= 0
    return counts
  }

  /**
   * Posts having, for every term, a word equal to it or starting with it; newest first, at
   * most `limit`. The term with the fewest candidates drives a merge of its words' lists in
   * feed order; the others are checked on each candidate, and the walk stops at `limit`.
   */
  search(terms: readonly string[], limit: number): PostDocument[] {
    this.sweepExpired()
    if (terms.length === 0 || limit <= 0) return []
    if (this.vocabularyDirty) {
      this.vocabulary = [...this.byWord.keys()].sort()
      this.vocabularyDirty = false
    }
    const perTerm = terms.map((term) => {
      const words = this.wordsStartingWith(term)
      const lists = words.map((word) => this.byWord.get(word)!)
      return { term, lists, size: lists.reduce((sum, list) => sum + list.length, 0) }
    })
    if (perTerm.some(({ size }) => size === 0)) return []
    perTerm.sort((a, b) => a.size - b.size)
    const [driver, ...others] = perTerm
    const results: PostDocument[] = []
    for (const post of mergeInFeedOrder(driver!.lists)) {
      if (others.every(({ term }) => post.searchWords.some((word) => word.startsWith(term)))) {
        results.push(post)
        if (results.length >= limit) break
      }
    }
    return results
  }

  private wordsStartingWith(prefix: string): string[] {
    const words: string[] = []
    let low = 0
    let high = this.vocabulary.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.vocabulary[middle]! < prefix) low = middle + 1
      else high = middle
    }
    for (
      let i = low;
      i < this.vocabulary.length && this.vocabulary[i]!.startsWith(prefix);
      i += 1
    ) {
      words.push(this.vocabulary[i]!)
    }
    return words
  }

  private addEntry(post: PostDocument): void {
    this.byId.set(post._id, post)
    this.all.insert(post)
    for (const key of filterKeys(post)) listOf(this.byFilter, key).insert(post)
    for (const word of post.searchWords) {
      if (!this.byWord.has(word)) this.vocabularyDirty = true
      listOf(this.byWord, word).insert(post)
    }
    this.noteExpiry(post)
  }

  private removeEntry(post: PostDocument): void {
    this.byId.delete(post._id)
    this.all.remove(post)
    for (const key of filterKeys(post)) removeFrom(this.byFilter, key, post)
    for (const word of post.searchWords) {
      if (removeFrom(this.byWord, word, post)) this.vocabularyDirty = true
    }
  }

  private noteExpiry(post: PostDocument): void {
    if (post.expiresAt) this.nextExpiry = Math.min(this.nextExpiry, post.expiresAt.getTime())
  }

  /** Expired posts leave the feed at their expiry, not at the next write. */
  private sweepExpired(): void {
    const now = this.now().getTime()
    if (now < this.nextExpiry) return
    this.nextExpiry = Infinity
    for (const post of [...this.byId.values()]) {
      if (post.expiresAt && post.expiresAt.getTime() <= now) this.removeEntry(post)
      else this.noteExpiry(post)
    }
  }
}

function activeFilters(filters: FeedFilters): Array<[FilterName, string]> {
  return (['category', 'location', 'payment', 'contact'] as const)
    .filter((name) => filters[name] !== undefined && filters[name] !== '')
    .map((name) => [name, filters[name]!])
}

function filterKey(name: FilterName, value: string): string {
  return `${name}\u0000${value}`
}

/** Every filter value a post answers to (hidden location and contact answer to none). */
function filterKeys(post: PostDocument): string[] {
  const keys = [filterKey('category', post.category)]
  if (post.displayLocation && post.location) keys.push(filterKey('location', post.location))
  if (post.displayContact && post.contact) keys.push(filterKey('contact', post.contact))
  for (const payment of new Set(post.paymentType)) keys.push(filterKey('payment', payment))
  return keys
}

function matches(post: PostDocument, name: FilterName, value: string): boolean {
  switch (name) {
    case 'category':
      return post.category === value
    case 'location':
      return post.displayLocation && post.location === value
    case 'contact':
      return post.displayContact && post.contact === value
    case 'payment':
      return post.paymentType.includes(value)
  }
}

function listOf(map: Map<string, OrderedPosts>, key: string): OrderedPosts {
  let list = map.get(key)
  if (!list) map.set(key, (list = new OrderedPosts()))
  return list
}

/** Removes `post` from the list under `key`; answers true when the list became empty. */
function removeFrom(map: Map<string, OrderedPosts>, key: string, post: PostDocument): boolean {
  const list = map.get(key)
  if (!list) return false
  list.remove(post)
  if (list.length > 0) return false
  map.delete(key)
  return true
}

/** Lazily merges lists already in feed order, yielding each post once. */
function* mergeInFeedOrder(lists: readonly OrderedPosts[]): Generator<PostDocument> {
  if (lists.length === 1) {
    yield* lists[0]!.items
    return
  }
  // A binary heap of cursors, ordered by the post each points at.
  const heap = lists.filter((list) => list.length > 0).map((list) => ({ items: list.items, at: 0 }))
  const before = (i: number, j: number) =>
    feedOrder(heap[i]!.items[heap[i]!.at]!, heap[j]!.items[heap[j]!.at]!) < 0
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!])
  const down = (start: number) => {
    for (let i = start; ;) {
      const left = 2 * i + 1
      const right = left + 1
      let best = i
      if (left < heap.length && before(left, best)) best = left
      if (right < heap.length && before(right, best)) best = right
      if (best === i) return
      swap(i, best)
      i = best
    }
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i -= 1) down(i)
  let lastId: string | null = null
  while (heap.length > 0) {
    const top = heap[0]!
    const post = top.items[top.at]!
    // The same post under two words of one prefix ("move", "moving") comes out twice in a row.
    if (post._id !== lastId) yield post
    lastId = post._id
    top.at += 1
    if (top.at >= top.items.length) {
      heap[0] = heap[heap.length - 1]!
      heap.pop()
    }
    if (heap.length > 0) down(0)
  }
}
