import { OrderedList, feedOrder, type FeedItem } from './feed-order'

/** How a kind of item (a post, a worker) answers the feed's questions. */
export interface FeedSchema<T extends FeedItem> {
  /** Whether the item belongs in the feed at `now` (online, not expired, not removed...). */
  isLive(item: T, now: Date): boolean
  /**
   * Every filter value the item answers to, as [filter, value] pairs: ["category", "Moving"],
   * ["payment", "Cash"]... A value the viewer may not see must not be listed: a filter on it
   * would reveal it.
   */
  filterValues(item: T): ReadonlyArray<readonly [string, string]>
  /** The item's search words, lower-cased and normalized like the search terms. */
  searchWords(item: T): readonly string[]
  /** When the item leaves the feed by itself, if ever. */
  expiresAt?(item: T): Date | null
}

export interface FeedQuery {
  /** Filter name → wanted value; empty or missing values do not filter. */
  filters: Readonly<Record<string, string | undefined>>
  page: number
  pageSize: number
  sort: 'desc' | 'asc'
}

export interface FeedPage<T> {
  items: T[]
  total: number
}

interface Entry<T> {
  item: T
  /** Shared by every item with the same filter values: never changed. */
  keys: readonly string[]
}

/**
 * The live items of a feed, held in memory and kept in feed order per filter value, so a page,
 * a count per category or a search costs about the same at 100,000 items as at 100. FerretDB
 * pushes down neither filters nor sorts (docs/local-infrastructure.md), so asking the
 * database would scan every document. The database stays the source of truth: each service
 * loads this index from it at start and applies every change.
 */
export class FeedIndex<T extends FeedItem> {
  private readonly byId = new Map<string, Entry<T>>()
  private readonly all = new OrderedList<T>()
  /** "category\u0000Moving" → the live items with that value, in feed order. */
  private readonly byFilter = new Map<string, OrderedList<T>>()
  /** Search: word → live items containing it; `vocabulary` sorted for prefix ranges. */
  private readonly byWord = new Map<string, OrderedList<T>>()
  private vocabulary: string[] = []
  private vocabularyDirty = false
  /**
   * One copy of each filter key ("category\u0000Moving") and of each set of them: items share
   * a few thousand combinations of category, place, contact and payments, not one each.
   */
  private readonly keys = new Map<string, string>()
  private readonly keySets = new Map<string, readonly string[]>()
  /** Bumped by every change: cached intersections older than it are stale. */
  private version = 0
  private readonly intersections = new Map<string, { version: number; items: T[] }>()
  /** The earliest expiry among indexed items: nothing to sweep before it. */
  private nextExpiry = Infinity

  constructor(
    private readonly schema: FeedSchema<T>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get size(): number {
    this.sweepExpired()
    return this.all.length
  }

  /** The live item with this id, if indexed. */
  get(id: string): T | undefined {
    return this.byId.get(id)?.item
  }

  /** Every live item in feed order: a copy, for a snapshot (the items are never mutated). */
  items(): T[] {
    this.sweepExpired()
    return this.all.items.slice()
  }

  /** Replaces the whole content (start-up load); `items` in any order (fastest in feed order). */
  load(items: Iterable<T>): void {
    this.version += 1
    this.byId.clear()
    this.all.items.length = 0
    this.byFilter.clear()
    this.byWord.clear()
    this.nextExpiry = Infinity
    const now = this.now()
    for (const item of items) {
      if (!this.schema.isLive(item, now)) continue
      const entry = this.entryOf(item)
      this.byId.set(item._id, entry)
      this.all.push(item)
      for (const key of entry.keys) listOf(this.byFilter, key).push(item)
      for (const word of this.schema.searchWords(item)) listOf(this.byWord, word).push(item)
      this.noteExpiry(item)
    }
    this.all.sort()
    for (const list of this.byFilter.values()) list.sort()
    for (const list of this.byWord.values()) list.sort()
    this.vocabulary = [...this.byWord.keys()].sort()
    this.vocabularyDirty = false
  }

  /** Applies the current state of one item: indexed when live, removed otherwise. */
  apply(id: string, item: T | null): void {
    const previous = this.byId.get(id)
    if (previous) this.removeEntry(previous)
    if (item && this.schema.isLive(item, this.now())) this.addEntry(this.entryOf(item))
  }

  page(query: FeedQuery): FeedPage<T> {
    this.sweepExpired()
    // The index's own copy of each key: an item's keys are then found by identity, not by
    // comparing text (a filtered page tests every item of its shortest list).
    const active = Object.entries(query.filters)
      .filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== '')
      .map(([name, value]) => filterKey(name, value))
      .map((key) => this.keys.get(key) ?? key)
    const lists = active.map((key) => this.byFilter.get(key))
    if (lists.some((list) => list === undefined)) return { items: [], total: 0 }
    const all =
      active.length <= 1
        ? ((lists[0] as OrderedList<T> | undefined) ?? this.all).items
        : this.intersection(active, lists as Array<OrderedList<T>>)
    const start = (query.page - 1) * query.pageSize
    const items: T[] = []
    for (let i = start; i < Math.min(start + query.pageSize, all.length); i += 1)
      items.push(query.sort === 'asc' ? all[all.length - 1 - i]! : all[i]!)
    return { items, total: all.length }
  }

  /**
   * The items answering to every one of `active`, in feed order. Walking the shortest list
   * costs a pass over, say, a category's posts: kept until the index next changes (the same
   * filters asked again, page after page, cost a page), for the last few combinations asked.
   */
  private intersection(active: string[], lists: Array<OrderedList<T>>): T[] {
    const cacheKey = [...active].sort().join('\u0001')
    const cached = this.intersections.get(cacheKey)
    if (cached && cached.version === this.version) {
      // Most recently used last: the oldest entry is the first one dropped.
      this.intersections.delete(cacheKey)
      this.intersections.set(cacheKey, cached)
      return cached.items
    }
    const source = lists.reduce((shortest, list) =>
      list.length < shortest.length ? list : shortest,
    )
    const items: T[] = []
    for (const item of source.items) {
      const keys = this.byId.get(item._id)!.keys
      if (active.every((key) => keys.includes(key))) items.push(item)
    }
    this.intersections.delete(cacheKey)
    this.intersections.set(cacheKey, { version: this.version, items })
    if (this.intersections.size > MAX_CACHED_INTERSECTIONS)
      this.intersections.delete(this.intersections.keys().next().value!)
    return items
  }

  /** Live items per value of one filter; equal to what the feed returns for each value. */
  countsBy(filter: string, values: readonly string[]): Record<string, number> {
    this.sweepExpired()
    const counts: Record<string, number> = {}
    for (const value of values) {
      counts[value] = this.byFilter.get(filterKey(filter, value))?.length ?? 0
    }
    return counts
  }

  /**
   * Items having, for every term, a word equal to it or starting with it; in feed order, at
   * most `limit`. The term with the fewest candidates drives a merge of its words' lists in
   * feed order; the others are checked on each candidate, and the walk stops at `limit`.
   */
  search(terms: readonly string[], limit: number): T[] {
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
    const results: T[] = []
    for (const item of mergeInFeedOrder(driver!.lists)) {
      const words = this.schema.searchWords(item)
      if (others.every(({ term }) => words.some((word) => word.startsWith(term)))) {
        results.push(item)
        if (results.length >= limit) break
      }
    }
    return results
  }

  private entryOf(item: T): Entry<T> {
    const pairs = this.schema.filterValues(item)
    // The set's name first: at a million items, only a new combination builds its keys.
    let setKey = ''
    for (const [name, value] of pairs) setKey += `${name}\u0000${value}\u0001`
    let shared = this.keySets.get(setKey)
    if (shared === undefined) {
      const keys = [...new Set(pairs.map(([name, value]) => filterKey(name, value)))]
      shared = Object.freeze(
        keys.map((key) => {
          const known = this.keys.get(key)
          if (known !== undefined) return known
          this.keys.set(key, key)
          return key
        }),
      )
      this.keySets.set(setKey, shared)
    }
    return { item, keys: shared }
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

  private addEntry(entry: Entry<T>): void {
    this.version += 1
    const { item } = entry
    this.byId.set(item._id, entry)
    this.all.insert(item)
    for (const key of entry.keys) listOf(this.byFilter, key).insert(item)
    for (const word of this.schema.searchWords(item)) {
      if (!this.byWord.has(word)) this.vocabularyDirty = true
      listOf(this.byWord, word).insert(item)
    }
    this.noteExpiry(item)
  }

  /** Removes with the keys and words the item was added with, whatever it holds now. */
  private removeEntry(entry: Entry<T>): void {
    this.version += 1
    const { item } = entry
    this.byId.delete(item._id)
    this.all.remove(item)
    for (const key of entry.keys) removeFrom(this.byFilter, key, item)
    for (const word of this.schema.searchWords(item)) {
      if (removeFrom(this.byWord, word, item)) this.vocabularyDirty = true
    }
  }

  private noteExpiry(item: T): void {
    const expiresAt = this.schema.expiresAt?.(item)
    if (expiresAt) this.nextExpiry = Math.min(this.nextExpiry, expiresAt.getTime())
  }

  /** Expired items leave the feed at their expiry, not at the next write. */
  private sweepExpired(): void {
    const now = this.now().getTime()
    if (now < this.nextExpiry) return
    this.nextExpiry = Infinity
    for (const entry of [...this.byId.values()]) {
      const expiresAt = this.schema.expiresAt?.(entry.item)
      if (expiresAt && expiresAt.getTime() <= now) this.removeEntry(entry)
      else this.noteExpiry(entry.item)
    }
  }
}

/** Filter combinations whose items are kept between changes (a few pages' worth each). */
const MAX_CACHED_INTERSECTIONS = 32

function filterKey(name: string, value: string): string {
  return `${name}\u0000${value}`
}

function listOf<T extends FeedItem>(map: Map<string, OrderedList<T>>, key: string) {
  let list = map.get(key)
  if (!list) map.set(key, (list = new OrderedList<T>()))
  return list
}

/** Removes `item` from the list under `key`; answers true when the list became empty. */
function removeFrom<T extends FeedItem>(
  map: Map<string, OrderedList<T>>,
  key: string,
  item: T,
): boolean {
  const list = map.get(key)
  if (!list) return false
  list.remove(item)
  if (list.length > 0) return false
  map.delete(key)
  return true
}

/** Lazily merges lists already in feed order, yielding each item once. */
function* mergeInFeedOrder<T extends FeedItem>(lists: ReadonlyArray<OrderedList<T>>): Generator<T> {
  if (lists.length === 1) {
    yield* lists[0]!.items
    return
  }
  // A binary heap of cursors, ordered by the item each points at.
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
    const item = top.items[top.at]!
    // The same item under two words of one prefix ("move", "moving") comes out twice in a row.
    if (item._id !== lastId) yield item
    lastId = item._id
    top.at += 1
    if (top.at >= top.items.length) {
      heap[0] = heap[heap.length - 1]!
      heap.pop()
    }
    if (heap.length > 0) down(0)
  }
}
