import { milesBetween, type LatLon } from '@marketplace/geo'
import { IdTable } from './id-table'
import { PointLists } from './point-lists'
import { SlotList } from './slot-list'
import { TextArena } from './text-arena'

/**
 * One item of a columnar feed, as the service gives it and gets it back: only what the feed
 * shows to everyone, filters and searches on. Never a private value: what the feed holds is
 * what any guest may read (an insider's view is read from the database by `_id`).
 */
export interface FeedRow {
  id: string
  /** Milliseconds since the epoch; the feed's order is newest first, `id` breaking ties. */
  createdAt: number
  /** When the item leaves the feed by itself (ms), or null. */
  expiresAt: number | null
  /** Values of the schema's `shared` columns, in order: each distinct value is held once. */
  shared: readonly string[]
  /** Values of the schema's `numbers` columns, in order (times, flags, counts). */
  numbers: readonly number[]
  /** The item's own text (the service's encoding of its free-text public fields). */
  text: string
}

/** How a kind of row answers the feed's questions; computed from the row alone. */
export interface ColumnarSchema {
  /** Columns whose values many rows repeat (owner, place, category...): 4 bytes a row. */
  shared: readonly string[]
  /** Number columns: 8 bytes a row each. */
  numbers: readonly string[]
  /**
   * Every filter value the row answers to, as [filter, value] pairs. A value the row does not
   * show to everyone must not be listed: a filter on it would reveal it.
   */
  filterValues(row: FeedRow): Iterable<readonly [string, string]>
  /** The row's search words, normalized like the search terms. */
  searchWords(row: FeedRow): readonly string[]
  /**
   * Where a row is, for "within N miles": the indexes in `numbers` of its latitude and longitude.
   * A row that has no point holds NO_POINT as its latitude. Like a filter value, the point must be
   * one everyone may know (a post whose location is private holds its town's point only).
   */
  point?: { lat: number; lon: number }
  /**
   * Names the two functions above: a snapshot written by code whose filters or words differ
   * (another version) has them computed again from its rows instead of trusted.
   */
  version: string
}

export interface ColumnarQuery {
  /** Filter name → wanted value; empty or missing values do not filter. */
  filters: Readonly<Record<string, string | undefined>>
  page: number
  pageSize: number
  sort: 'desc' | 'asc'
  /**
   * A cursor: the page starts right after this item in the query's order, and `page` is not
   * read. The item need not be held any more (deleted since): its place is found by its keys.
   * Pages read this way never overlap nor skip, whatever was added or removed between them,
   * and on whichever instance each is read.
   */
  after?: FeedPosition
  /**
   * Rows this reader must not see (the people a signed-in reader blocked or was blocked by,
   * docs/blocking.md): left out of the page, the total and the cursor's count alike.
   */
  hide?: HiddenRows
  /**
   * Only rows within `miles` of this point (the schema's `point`), in feed order or nearest
   * first (`order: 'distance'`, the feed's order among equals; `sort` and `after` are then not
   * read). The page carries each row's distance.
   */
  near?: NearQuery
}

export interface NearQuery extends LatLon {
  miles: number
  order: 'feed' | 'distance'
}

/** A row's latitude when it has no point (a place the gazetteer does not know). */
export const NO_POINT = 999

/**
 * Rows hidden from one reader: those with one of `ids`, and those whose shared column
 * `shared.column` holds one of `shared.values` (an owner). A reader who hides nothing the
 * feed holds pays nothing; ids cost a binary search each; shared values one pass over the
 * matching rows comparing numbers, with no copy of the list.
 */
export interface HiddenRows {
  ids?: Iterable<string>
  shared?: { column: number; values: Iterable<string> }
}

/** An item's place in the feed: what the order reads (its creation time, then its id). */
export interface FeedPosition {
  createdAt: number
  id: string
}

export interface SlotPage {
  /** Row numbers, for `row(slot)` and `card(slot, ...)`; valid until the feed next changes. */
  slots: number[]
  total: number
  /** Where the page starts among the `total` matching rows (0: the first). */
  start: number
  /** With `near`: each row's distance in miles from the point asked about, beside `slots`. */
  distances?: number[]
}

/** A snapshot's records: the feed's format; the service may add records of its own after. */
type SnapshotRecord =
  | {
      k: 'meta'
      format: typeof FORMAT
      shared: string[]
      numbers: string[]
      version: string
      /** Rows and the bytes of their texts: the loader makes room for them once. */
      rows?: number
      textBytes?: number
    }
  | { k: 'strings'; v: string[] }
  | { k: 'keysets'; v: string[][] }
  | { k: 'words'; v: string[] }
  | { k: 'ranks'; v: number[] }
  | {
      k: 'rows'
      id: string[]
      /** createdAt: the first row's, then each row's difference from the row before. */
      c: number[]
      /** expiresAt, 0 for none. */
      e: number[]
      s: number[]
      x: number[]
      t: string[]
      f: number[]
      /** Each row's words, by rank (see `ranks`), `wn` of them per row. */
      w: number[]
      wn: number[]
    }

const FORMAT = 'columnar-1'
const NO_ROW = -1
const ROWS_PER_RECORD = 4096
const STRINGS_PER_RECORD = 65_536
/** "Within N miles" answers kept between changes (the pages after the first read them again). */
const MAX_CACHED_NEAR = 32
/** Filter combinations whose rows are kept between changes (a few pages' worth each). */
const MAX_CACHED_INTERSECTIONS = 32
/** Card texts kept (the pages being read): a few MB whatever the feed's size. */
const MAX_CACHED_CARDS = 8192

/**
 * The live items of a feed in columns: a million items are a few typed arrays (ids as their
 * 12 bytes, times, shared values as numbers, filter sets), one string of text each, and lists
 * of row numbers (4 bytes an entry) in feed order per filter value and per search word.
 * Compared with an object per item and lists of pointers (FeedIndex), it holds a third of the
 * memory, and it loads from a snapshot of its own columns without building an object per
 * item (docs/scale.md, "Read models that load in seconds").
 *
 * FerretDB pushes down neither filters nor sorts (docs/local-infrastructure.md), so a page
 * is answered here; the database stays the source of truth: the service loads the feed from
 * a snapshot or the database and applies every change.
 */
export class ColumnarFeed {
  private readonly sharedCount: number
  private readonly numberCount: number
  private capacity = 0
  private used = 0
  private free: number[] = []
  private ids = new IdTable()
  private texts = new TextArena()
  private createdAt = new Float64Array(0)
  /** NaN: never expires. */
  private expiresAt = new Float64Array(0)
  private sharedValues = new Int32Array(0)
  private numberValues = new Float64Array(0)
  private keySetOf = new Int32Array(0)
  /** The shared values, each once; a row holds its index. Only grows until the next load. */
  private strings: string[] = []
  private stringIds = new Map<string, number>()
  /** Each combination of filter keys ("category\u0000Moving"...), once; a row holds its index. */
  private keySets: string[][] = []
  private keySetIds = new Map<string, number>()
  private keys = new Map<string, string>()
  private all = new SlotList()
  private byFilter = new Map<string, SlotList>()
  /** Rows with a point, per point (in feed order) and the points per grid cell. */
  private byPoint = new PointLists()
  /**
   * Search: every word held, sorted (a prefix is a range of it), and beside each its rows; a
   * word of one row holds the row number itself (most words are rare). Two arrays and no map:
   * a map entry per word would cost more than the word (a million posts bring a million words).
   */
  private vocabulary: string[] = []
  private postings: Array<SlotList | number> = []
  /** Bumped by every change: cached intersections older than it are stale. */
  private version = 0
  private intersections = new Map<string, { version: number; slots: Int32Array }>()
  private nearAnswers = new Map<string, { version: number; slots: Int32Array }>()
  private cards = new Map<number, string>()
  private nextExpiry = Infinity

  constructor(
    private readonly schema: ColumnarSchema,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.sharedCount = schema.shared.length
    this.numberCount = schema.numbers.length
  }

  /** Feed order: newest first, the greater id first among equal times. */
  private readonly before = (a: number, b: number): boolean => {
    const ta = this.createdAt[a]!
    const tb = this.createdAt[b]!
    if (ta !== tb) return ta > tb
    return this.ids.isGreater(a, b)
  }

  get size(): number {
    this.sweepExpired()
    return this.all.length
  }

  /** The row number of a live item, if held. */
  slotOf(id: string): number | undefined {
    return this.ids.get(id)
  }

  /** A row's id, without building the row. */
  idOf(slot: number): string {
    return this.ids.idOf(slot)
  }

  /** One shared value of a row (the schema's `shared[column]`), without building the row. */
  sharedOf(slot: number, column: number): string {
    return this.strings[this.sharedValues[slot * this.sharedCount + column]!]!
  }

  get(id: string): FeedRow | undefined {
    const slot = this.ids.get(id)
    return slot === undefined ? undefined : this.row(slot)
  }

  row(slot: number): FeedRow {
    const shared: string[] = []
    for (let i = 0; i < this.sharedCount; i += 1)
      shared.push(this.strings[this.sharedValues[slot * this.sharedCount + i]!]!)
    const numbers: number[] = []
    for (let i = 0; i < this.numberCount; i += 1)
      numbers.push(this.numberValues[slot * this.numberCount + i]!)
    const expiresAt = this.expiresAt[slot]!
    return {
      id: this.ids.idOf(slot),
      createdAt: this.createdAt[slot]!,
      expiresAt: Number.isNaN(expiresAt) ? null : expiresAt,
      shared,
      numbers,
      text: this.texts.get(slot),
    }
  }

  /** Every live row in feed order (tests, tools). */
  rows(): FeedRow[] {
    this.sweepExpired()
    return Array.from(this.all.view(), (slot) => this.row(slot))
  }

  /**
   * The text `build` makes of a row (a card's JSON), kept for the rows read most recently: a
   * page read again costs its cached texts joined. Dropped when the row changes.
   */
  card(slot: number, build: (row: FeedRow) => string): string {
    let text = this.cards.get(slot)
    if (text !== undefined) {
      this.cards.delete(slot)
      this.cards.set(slot, text)
      return text
    }
    text = build(this.row(slot))
    this.cards.set(slot, text)
    if (this.cards.size > MAX_CACHED_CARDS) this.cards.delete(this.cards.keys().next().value!)
    return text
  }

  /** Applies the current state of one item: held when given and not expired, removed otherwise. */
  apply(id: string, row: FeedRow | null): void {
    const previous = this.ids.get(id)
    const live = row !== null && !this.expired(row.expiresAt, this.now().getTime())
    if (previous === undefined && !live) return
    this.version += 1
    if (previous !== undefined) {
      this.unindex(previous)
      this.cards.delete(previous)
    }
    if (live) {
      let slot = previous
      if (slot === undefined) {
        slot = this.allocate()
        this.ids.set(id, slot)
      }
      this.write(slot, row)
      this.index(slot)
    } else if (previous !== undefined) {
      this.release(previous)
    }
  }

  /** Replaces the whole content (a load from the database); rows in any order. */
  load(rows: Iterable<FeedRow>): number {
    const next = new ColumnarFeed(this.schema, this.now)
    const now = this.now().getTime()
    let count = 0
    for (const row of rows) {
      count += 1
      if (next.expired(row.expiresAt, now)) continue
      let slot = next.ids.get(row.id)
      if (slot === undefined) {
        slot = next.allocate()
        next.ids.set(row.id, slot)
      }
      next.write(slot, row)
    }
    next.buildLists()
    this.adopt(next)
    return count
  }

  /**
   * Reads a snapshot this feed's `snapshotRecords` wrote: `accept` takes each record (false for
   * a record that is not the feed's: the service's own), `finish` replaces the content at once.
   * Until then the feed serves and changes as before; the service applies again what changed
   * meanwhile (the snapshot may hold an older copy of it).
   */
  snapshotLoader(): { accept(record: unknown): boolean; finish(): number } {
    const next = new ColumnarFeed(this.schema, this.now)
    const now = this.now().getTime()
    let meta = false
    let trusted = false
    // Appended to (concat would copy a million entries once per record).
    const vocabulary: string[] = []
    /** Rank → index in `vocabulary`. */
    const byRank: number[] = []
    /** Per word of the snapshot (its index in `vocabulary`), its rows so far. */
    // -1: no row yet. Filled to the vocabulary's length before the first row: set at scattered
    // indexes, an empty array would turn into a dictionary (slow, and a hash entry per word).
    let postings: Array<SlotList | number> = []
    let count = 0
    let previous = -1
    let ordered = true
    return {
      accept: (value: unknown): boolean => {
        const record = value as SnapshotRecord
        if (typeof record !== 'object' || record === null || !('k' in record)) return false
        switch (record.k) {
          case 'meta':
            // Another layout of columns cannot be read; other filters or words are recomputed.
            if (
              record.format !== FORMAT ||
              record.shared.join() !== this.schema.shared.join() ||
              record.numbers.join() !== this.schema.numbers.join()
            )
              throw new Error(`snapshot columns ${record.format} do not match this feed`)
            trusted = record.version === this.schema.version
            meta = true
            // One allocation each instead of a growing series (whose garbage the collector
            // frees late: it is outside the heap).
            // A sixteenth more for the rows created after the load.
            if (record.rows) next.resize(Math.ceil(record.rows * 1.0625) + 1024)
            if (record.textBytes) next.texts.reserve(record.textBytes)
            return true
          case 'strings':
            for (const value of record.v) {
              next.stringIds.set(value, next.strings.length)
              next.strings.push(value)
            }
            return true
          case 'keysets':
            for (const keys of record.v) {
              next.keySetIds.set(keys.join('\u0001'), next.keySets.length)
              next.keySets.push(keys.map((key) => next.keyOf(key)))
            }
            return true
          case 'words':
            for (const word of record.v) vocabulary.push(word)
            return true
          case 'ranks':
            for (const rank of record.v) byRank.push(rank)
            return true
          case 'rows': {
            if (postings.length < vocabulary.length)
              postings = new Array<SlotList | number>(vocabulary.length).fill(NO_ROW)
            const S = this.sharedCount
            const N = this.numberCount
            let w = 0
            let createdAt = 0
            for (let i = 0; i < record.id.length; i += 1) {
              count += 1
              createdAt = i === 0 ? record.c[0]! : createdAt + record.c[i]!
              const words = record.wn[i]!
              const expiresAt = record.e[i] || null
              const id = record.id[i]!
              if (next.expired(expiresAt, now)) {
                w += words
                continue
              }
              const slot = next.allocate()
              if (next.ids.add(id, slot) !== undefined) {
                // The same id twice (never written so): the first stands, and the row just taken
                // (the last: a load's feed has no free rows) is given back.
                next.used -= 1
                w += words
                continue
              }
              next.texts.set(slot, record.t[i]!, next.used)
              next.createdAt[slot] = createdAt
              next.expiresAt[slot] = expiresAt ?? NaN
              for (let j = 0; j < S; j += 1) next.sharedValues[slot * S + j] = record.s[i * S + j]!
              for (let j = 0; j < N; j += 1) next.numberValues[slot * N + j] = record.x[i * N + j]!
              if (previous >= 0 && !next.before(previous, slot)) ordered = false
              previous = slot
              if (trusted) {
                next.keySetOf[slot] = record.f[i]!
                for (let j = 0; j < words; j += 1) {
                  const word = byRank[record.w[w + j]!]!
                  const entry = postings[word]!
                  if (entry === NO_ROW) postings[word] = slot
                  else if (typeof entry === 'number') {
                    const list = new SlotList(2)
                    list.push(entry)
                    list.push(slot)
                    postings[word] = list
                  } else entry.push(slot)
                }
              }
              w += words
            }
            return true
          }
          default:
            return false
        }
      },
      finish: (): number => {
        if (!meta) throw new Error('not a snapshot of a columnar feed')
        if (trusted) {
          next.all = new SlotList(next.used)
          for (let slot = 0; slot < next.used; slot += 1) {
            next.all.push(slot)
            for (const key of next.keySets[next.keySetOf[slot]!]!)
              listOf(next.byFilter, key, next.used >> 4).push(slot)
            const point = next.pointOf(slot)
            if (point) next.byPoint.push(slot, point)
          }
          let complete = postings.length === vocabulary.length
          for (let word = 0; complete && word < vocabulary.length; word += 1)
            complete = postings[word] !== NO_ROW
          if (complete && isAscending(vocabulary)) {
            // The usual case: taken as they are, no copy of a million entries.
            next.vocabulary = vocabulary
            next.postings = postings
          } else {
            // Words whose rows all expired since the snapshot are left out.
            const order = vocabulary
              .map((_, word) => word)
              .filter((word) => postings[word] !== undefined && postings[word] !== NO_ROW)
            if (!isAscending(vocabulary))
              order.sort((a, b) => (vocabulary[a]! < vocabulary[b]! ? -1 : 1))
            next.vocabulary = order.map((word) => vocabulary[word]!)
            next.postings = order.map((word) => postings[word]!)
          }
          if (!ordered) next.sortLists()
          next.trimLists()
          for (let slot = 0; slot < next.used; slot += 1) next.noteExpiry(slot)
        } else {
          next.keySets = []
          next.keySetIds.clear()
          for (let slot = 0; slot < next.used; slot += 1)
            next.keySetOf[slot] = next.keySetId(next.schema.filterValues(next.row(slot)))
          next.buildLists()
        }
        this.adopt(next)
        return count
      },
    }
  }

  /**
   * The content now, as snapshot records: the columns are copied at once (the feed changes
   * in place afterwards; the copy is what the positions taken with it cover), the records
   * then made from the copy a few thousand rows at a time.
   */
  snapshotRecords(): { count: number; records: Iterable<unknown> } {
    this.sweepExpired()
    const slots = this.all.view().slice()
    const S = this.sharedCount
    const N = this.numberCount
    const n = slots.length
    const idAt = this.ids.copy(slots)
    const textAt = this.texts.copy(slots)
    const textBytes = this.texts.bytesOf(slots)
    const createdAt = new Float64Array(n)
    const expiresAt = new Float64Array(n)
    const shared = new Int32Array(n * S)
    const numbers = new Float64Array(n * N)
    const keySetOf = new Int32Array(n)
    for (let i = 0; i < n; i += 1) {
      const slot = slots[i]!
      createdAt[i] = this.createdAt[slot]!
      expiresAt[i] = this.expiresAt[slot]!
      shared.set(this.sharedValues.subarray(slot * S, slot * S + S), i * S)
      numbers.set(this.numberValues.subarray(slot * N, slot * N + N), i * N)
      keySetOf[i] = this.keySetOf[slot]!
    }
    // Only ever appended to until the next load, which replaces them: the copy's indexes stay
    // valid in these arrays as they are now.
    const strings = this.strings.slice()
    const keySets = this.keySets.slice()
    // A copy: new words are spliced into the feed's own array meanwhile.
    const vocabulary = this.vocabulary.slice()
    const byRank = byFrequency(this.postings)
    const schema = this.schema
    const rowAt = (i: number): FeedRow => {
      const values: string[] = []
      for (let j = 0; j < S; j += 1) values.push(strings[shared[i * S + j]!]!)
      const expires = expiresAt[i]!
      return {
        id: idAt(i),
        createdAt: createdAt[i]!,
        expiresAt: Number.isNaN(expires) ? null : expires,
        shared: values,
        numbers: Array.from(numbers.subarray(i * N, i * N + N)),
        text: textAt(i),
      }
    }
    return {
      count: n,
      records: (function* (): Generator<SnapshotRecord> {
        yield {
          k: 'meta',
          format: FORMAT,
          shared: [...schema.shared],
          numbers: [...schema.numbers],
          version: schema.version,
          rows: n,
          textBytes,
        }
        for (let i = 0; i < strings.length; i += STRINGS_PER_RECORD)
          yield { k: 'strings', v: strings.slice(i, i + STRINGS_PER_RECORD) }
        yield { k: 'keysets', v: keySets }
        for (let i = 0; i < vocabulary.length; i += STRINGS_PER_RECORD)
          yield { k: 'words', v: vocabulary.slice(i, i + STRINGS_PER_RECORD) }
        // Rows name their words by rank, most frequent first: the few common words, named on
        // nearly every row, take one or two digits instead of seven.
        const rankOf = new Int32Array(byRank.length)
        byRank.forEach((word, rank) => (rankOf[word] = rank))
        for (let i = 0; i < byRank.length; i += STRINGS_PER_RECORD)
          yield { k: 'ranks', v: Array.from(byRank.subarray(i, i + STRINGS_PER_RECORD)) }
        for (let start = 0; start < n; start += ROWS_PER_RECORD) {
          const end = Math.min(n, start + ROWS_PER_RECORD)
          const w: number[] = []
          const wn: number[] = []
          for (let i = start; i < end; i += 1) {
            const words = schema.searchWords(rowAt(i))
            // Found by binary search: a map of a million words would double the memory while
            // the snapshot is written.
            for (const word of words) w.push(rankOf[lowerBound(vocabulary, word)]!)
            wn.push(words.length)
          }
          yield {
            k: 'rows',
            id: Array.from({ length: end - start }, (_, i) => idAt(start + i)),
            c: Array.from(createdAt.subarray(start, end), (at, i) =>
              i === 0 ? at : at - createdAt[start + i - 1]!,
            ),
            e: Array.from(expiresAt.subarray(start, end), (at) => (Number.isNaN(at) ? 0 : at)),
            s: Array.from(shared.subarray(start * S, end * S)),
            x: Array.from(numbers.subarray(start * N, end * N)),
            t: Array.from({ length: end - start }, (_, i) => textAt(start + i)),
            f: Array.from(keySetOf.subarray(start, end)),
            w,
            wn,
          }
        }
      })(),
    }
  }

  page(query: ColumnarQuery): SlotPage {
    this.sweepExpired()
    // The feed's own copy of each key: a row's keys are then found by identity.
    const active = Object.entries(query.filters)
      .filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== '')
      .map(([name, value]) => filterKey(name, value))
      .map((key) => this.keys.get(key) ?? key)
    const lists = active.map((key) => this.byFilter.get(key))
    if (lists.some((list) => list === undefined))
      return { slots: [], total: 0, start: 0, ...(query.near && { distances: [] }) }
    let all: Int32Array
    if (query.near) {
      all = this.withinDistance(active, query.near)
      if (query.near.order === 'distance') query = { ...query, sort: 'desc', after: undefined }
    } else
      all =
        active.length <= 1
          ? ((lists[0] as SlotList | undefined) ?? this.all).view()
          : this.intersection(active, lists as SlotList[])
    // Where the reader's hidden rows are in the list (ascending), and what is left to show.
    const hiddenAt = query.hide ? this.hiddenPositions(all, query.hide) : []
    const visible = all.length - hiddenAt.length
    /** Hidden rows before a place in the list. */
    const hiddenBefore = (position: number) => {
      let count = 0
      while (count < hiddenAt.length && hiddenAt[count]! < position) count += 1
      return count
    }
    /** The place in the list of the n-th shown row (newest first). */
    const placeOf = (n: number) => {
      let place = n
      for (const hidden of hiddenAt) {
        if (hidden <= place) place += 1
        else break
      }
      return place
    }
    let start = (query.page - 1) * query.pageSize
    if (query.after) {
      // The lists are newest first: "asc" reads them backwards, so what follows the cursor
      // there is what comes before it here.
      if (query.sort === 'asc') {
        const before = this.countBefore(all, query.after, false)
        start = visible - (before - hiddenBefore(before))
      } else {
        const before = this.countBefore(all, query.after, true)
        start = before - hiddenBefore(before)
      }
    }
    const slots: number[] = []
    const distances: number[] = []
    for (let i = start; i < Math.min(start + query.pageSize, visible); i += 1) {
      const place = placeOf(query.sort === 'asc' ? visible - 1 - i : i)
      slots.push(all[place]!)
      if (query.near) distances.push(this.distanceOf(all[place]!, query.near)!)
    }
    return {
      slots,
      total: visible,
      start: Math.min(start, visible),
      ...(query.near && { distances }),
    }
  }

  /** A row's point, or undefined when it has none (or the schema has no points). */
  pointOf(slot: number): LatLon | undefined {
    const point = this.schema.point
    if (!point) return undefined
    const lat = this.numberValues[slot * this.numberCount + point.lat]!
    const lon = this.numberValues[slot * this.numberCount + point.lon]!
    if (!(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)) return undefined
    return { lat, lon }
  }

  /** Miles from `from` to a row's point, or undefined when the row has none. */
  distanceOf(slot: number, from: LatLon): number | undefined {
    const point = this.pointOf(slot)
    return point && milesBetween(from, point)
  }

  /**
   * The rows with every active filter key within `near.miles` of its point, in the order
   * asked: the points near enough (each measured once, PointLists), their rows kept if they
   * hold the filters, merged in feed order, or nearest point first (rows at the same distance,
   * to a thousandth of a mile, in feed order). One point with no filter is its own list, no
   * copy. Kept until the feed changes.
   */
  private withinDistance(active: readonly string[], near: NearQuery): Int32Array {
    const cacheKey = [near.lat, near.lon, near.miles, near.order, ...[...active].sort()].join(
      '\u0001',
    )
    const cached = this.nearAnswers.get(cacheKey)
    if (cached && cached.version === this.version) {
      this.nearAnswers.delete(cacheKey)
      this.nearAnswers.set(cacheKey, cached)
      return cached.slots
    }
    let points = this.byPoint.within(near, near.miles)
    if (active.length > 0) {
      points = points
        .map(({ rows, miles }) => ({ rows: this.withKeys(rows, active), miles }))
        .filter(({ rows }) => rows.length > 0)
    }
    let slots: Int32Array
    if (near.order === 'distance') {
      // Nearest first: points by their distance to a thousandth of a mile, the rows of points
      // at the same distance merged in feed order.
      const rounded = (miles: number) => Math.round(miles * 1000)
      points.sort((a, b) => rounded(a.miles) - rounded(b.miles))
      const runs: Int32Array[] = []
      for (let i = 0; i < points.length;) {
        let end = i + 1
        while (end < points.length && rounded(points[end]!.miles) === rounded(points[i]!.miles))
          end += 1
        runs.push(this.merged(points.slice(i, end).map((point) => point.rows)))
        i = end
      }
      slots = runs.length === 1 ? runs[0]! : concatenated(runs)
    } else slots = this.merged(points.map((point) => point.rows))
    this.nearAnswers.delete(cacheKey)
    this.nearAnswers.set(cacheKey, { version: this.version, slots })
    if (this.nearAnswers.size > MAX_CACHED_NEAR)
      this.nearAnswers.delete(this.nearAnswers.keys().next().value!)
    return slots
  }

  /** The rows of `rows` that hold every key of `active`. */
  private withKeys(rows: Int32Array, active: readonly string[]): Int32Array {
    const kept = new SlotList(Math.min(rows.length, 1024))
    for (let i = 0; i < rows.length; i += 1) {
      const keys = this.keySets[this.keySetOf[rows[i]!]!]!
      if (active.every((key) => keys.includes(key))) kept.push(rows[i]!)
    }
    return kept.view()
  }

  /** Lists in feed order merged into one (one list: itself). */
  private merged(lists: Int32Array[]): Int32Array {
    if (lists.length === 0) return new Int32Array(0)
    if (lists.length === 1) return lists[0]!
    const merged = new Int32Array(lists.reduce((sum, list) => sum + list.length, 0))
    let at = 0
    for (const slot of mergeInOrder(lists, this.before)) merged[at++] = slot
    return merged.subarray(0, at)
  }

  /** The places in `list` (feed order) of the rows `hide` names, ascending. */
  private hiddenPositions(list: Int32Array, hide: HiddenRows): number[] {
    const positions = new Set<number>()
    for (const id of hide.ids ?? []) {
      const slot = this.ids.get(id)
      if (slot === undefined) continue
      // Found by its keys, as a cursor is; it is hidden only where the list holds it.
      const at = this.countBefore(list, this.positionOf(slot), false)
      if (list[at] === slot) positions.add(at)
    }
    const valueIds: number[] = []
    for (const value of hide.shared?.values ?? []) {
      const id = this.stringIds.get(value)
      if (id !== undefined) valueIds.push(id)
    }
    if (valueIds.length > 0) {
      const stride = this.sharedCount
      const column = hide.shared!.column
      const values = this.sharedValues
      for (let i = 0; i < list.length; i += 1) {
        const value = values[list[i]! * stride + column]!
        for (const wanted of valueIds) {
          if (value === wanted) {
            positions.add(i)
            break
          }
        }
      }
    }
    return [...positions].sort((a, b) => a - b)
  }

  /** A row test for search, which checks rows one by one; none when nothing is hidden. */
  hidingTest(hide: HiddenRows | undefined): ((slot: number) => boolean) | undefined {
    if (!hide) return undefined
    const slots = new Set<number>()
    for (const id of hide.ids ?? []) {
      const slot = this.ids.get(id)
      if (slot !== undefined) slots.add(slot)
    }
    const valueIds = new Set<number>()
    for (const value of hide.shared?.values ?? []) {
      const id = this.stringIds.get(value)
      if (id !== undefined) valueIds.add(id)
    }
    if (slots.size === 0 && valueIds.size === 0) return undefined
    const stride = this.sharedCount
    const column = hide.shared?.column ?? 0
    return (slot) => slots.has(slot) || valueIds.has(this.sharedValues[slot * stride + column]!)
  }

  /** A row's place in the feed's order, for a cursor to the rows after it. */
  positionOf(slot: number): FeedPosition {
    return { createdAt: this.createdAt[slot]!, id: this.ids.idOf(slot) }
  }

  /**
   * How many rows of `list` (in feed order) come before `position`, or before it and at it
   * with `orAt`: a binary search on the keys the order reads.
   */
  private countBefore(list: Int32Array, position: FeedPosition, orAt: boolean): number {
    let low = 0
    let high = list.length
    while (low < high) {
      const middle = (low + high) >>> 1
      const slot = list[middle]!
      const at = this.createdAt[slot]!
      let before: boolean
      if (at !== position.createdAt) before = at > position.createdAt
      else {
        // Ids compare as strings, as the order's tie-break does (id-table.ts isGreater).
        const id = this.ids.idOf(slot)
        before = id > position.id || (orAt && id === position.id)
      }
      if (before) low = middle + 1
      else high = middle
    }
    return low
  }

  /** Live rows per value of one filter; equal to what the feed returns for each value. */
  countsBy(filter: string, values: readonly string[]): Record<string, number> {
    this.sweepExpired()
    const counts: Record<string, number> = {}
    for (const value of values)
      counts[value] = this.byFilter.get(filterKey(filter, value))?.length ?? 0
    return counts
  }

  /**
   * Rows having, for every term, a word equal to it or starting with it; in feed order, at
   * most `limit`. The term with the fewest candidates drives a merge of its words' lists in
   * feed order; the others are checked on each candidate, and the walk stops at `limit`.
   * `accept`, when given, is one more test a row must pass (a distance).
   */
  search(
    terms: readonly string[],
    limit: number,
    hidden?: HiddenRows,
    accept?: (slot: number) => boolean,
  ): number[] {
    this.sweepExpired()
    if (terms.length === 0 || limit <= 0) return []
    const perTerm = terms.map((term) => {
      const lists: Int32Array[] = []
      for (let i = lowerBound(this.vocabulary, term); i < this.vocabulary.length; i += 1) {
        if (!this.vocabulary[i]!.startsWith(term)) break
        const entry = this.postings[i]!
        lists.push(typeof entry === 'number' ? Int32Array.of(entry) : entry.view())
      }
      return { term, lists, size: lists.reduce((sum, list) => sum + list.length, 0) }
    })
    if (perTerm.some(({ size }) => size === 0)) return []
    perTerm.sort((a, b) => a.size - b.size)
    const [driver, ...others] = perTerm
    const results: number[] = []
    const hide = this.hidingTest(hidden)
    for (const slot of mergeInOrder(driver!.lists, this.before)) {
      const words = others.length > 0 ? this.schema.searchWords(this.row(slot)) : []
      if (hide?.(slot)) continue
      if (accept && !accept(slot)) continue
      if (others.every(({ term }) => words.some((word) => word.startsWith(term)))) {
        results.push(slot)
        if (results.length >= limit) break
      }
    }
    return results
  }

  private intersection(active: string[], lists: SlotList[]): Int32Array {
    const cacheKey = [...active].sort().join('\u0001')
    const cached = this.intersections.get(cacheKey)
    if (cached && cached.version === this.version) {
      // Most recently used last: the oldest entry is the first one dropped.
      this.intersections.delete(cacheKey)
      this.intersections.set(cacheKey, cached)
      return cached.slots
    }
    const source = lists.reduce((shortest, list) =>
      list.length < shortest.length ? list : shortest,
    )
    const found = new SlotList(Math.min(source.length, 1024))
    for (const slot of source.view()) {
      const keys = this.keySets[this.keySetOf[slot]!]!
      if (active.every((key) => keys.includes(key))) found.push(slot)
    }
    const slots = found.view()
    this.intersections.delete(cacheKey)
    this.intersections.set(cacheKey, { version: this.version, slots })
    if (this.intersections.size > MAX_CACHED_INTERSECTIONS)
      this.intersections.delete(this.intersections.keys().next().value!)
    return slots
  }

  private expired(expiresAt: number | null, now: number): boolean {
    return expiresAt !== null && expiresAt <= now
  }

  private allocate(): number {
    const reused = this.free.pop()
    if (reused !== undefined) return reused
    if (this.used === this.capacity)
      this.resize(
        // Doubling while small, an eighth more once large (a feed of a million rows does not
        // reserve room for a second million).
        Math.max(1024, this.capacity < 65_536 ? this.capacity * 2 : this.capacity * 1.125),
      )
    const slot = this.used
    this.used += 1
    return slot
  }

  private resize(capacity: number): void {
    capacity = Math.ceil(capacity)
    const grown = <A extends Float64Array | Int32Array>(
      array: A,
      perRow: number,
      make: (n: number) => A,
    ): A => {
      const next = make(capacity * perRow)
      next.set(array.subarray(0, this.used * perRow))
      return next
    }
    this.createdAt = grown(this.createdAt, 1, (n) => new Float64Array(n))
    this.expiresAt = grown(this.expiresAt, 1, (n) => new Float64Array(n))
    this.numberValues = grown(this.numberValues, this.numberCount, (n) => new Float64Array(n))
    this.sharedValues = grown(this.sharedValues, this.sharedCount, (n) => new Int32Array(n))
    this.keySetOf = grown(this.keySetOf, 1, (n) => new Int32Array(n))
    this.ids.resize(capacity)
    this.texts.resize(capacity)
    this.capacity = capacity
  }

  private release(slot: number): void {
    this.ids.delete(slot)
    this.texts.clear(slot)
    this.free.push(slot)
  }

  /** Writes a row's values into its slot (not yet in any list). */
  private write(slot: number, row: FeedRow): void {
    this.texts.set(slot, row.text, this.used)
    this.createdAt[slot] = row.createdAt
    this.expiresAt[slot] = row.expiresAt ?? NaN
    for (let i = 0; i < this.sharedCount; i += 1)
      this.sharedValues[slot * this.sharedCount + i] = this.stringId(row.shared[i] ?? '')
    for (let i = 0; i < this.numberCount; i += 1)
      this.numberValues[slot * this.numberCount + i] = row.numbers[i] ?? 0
    this.keySetOf[slot] = this.keySetId(this.schema.filterValues(row))
  }

  private index(slot: number): void {
    this.all.insert(slot, this.before)
    for (const key of this.keySets[this.keySetOf[slot]!]!)
      listOf(this.byFilter, key).insert(slot, this.before)
    const point = this.pointOf(slot)
    if (point) this.byPoint.insert(slot, point, this.before)
    for (const word of this.schema.searchWords(this.row(slot))) this.addWord(word, slot)
    this.noteExpiry(slot)
  }

  /** Takes a row out of every list, found by the values it was added with (still in place). */
  private unindex(slot: number): void {
    this.all.remove(slot, this.before)
    for (const key of this.keySets[this.keySetOf[slot]!]!) {
      const list = this.byFilter.get(key)
      if (list?.remove(slot, this.before) && list.length === 0) this.byFilter.delete(key)
    }
    const point = this.pointOf(slot)
    if (point) this.byPoint.remove(slot, point, this.before)
    for (const word of this.schema.searchWords(this.row(slot))) this.removeWord(word, slot)
  }

  /**
   * A new word is spliced into its place (a memmove of the pointers, about a millisecond at a
   * million words), so a search never waits for the vocabulary to be sorted again.
   */
  private addWord(word: string, slot: number): void {
    const at = lowerBound(this.vocabulary, word)
    if (this.vocabulary[at] !== word) {
      this.vocabulary.splice(at, 0, word)
      this.postings.splice(at, 0, slot)
      return
    }
    const entry = this.postings[at]!
    if (typeof entry === 'number') {
      if (entry === slot) return
      const list = new SlotList(2)
      list.insert(entry, this.before)
      list.insert(slot, this.before)
      this.postings[at] = list
    } else entry.insert(slot, this.before)
  }

  private removeWord(word: string, slot: number): void {
    const at = lowerBound(this.vocabulary, word)
    if (this.vocabulary[at] !== word) return
    const entry = this.postings[at]!
    if (typeof entry === 'number') {
      if (entry !== slot) return
      this.vocabulary.splice(at, 1)
      this.postings.splice(at, 1)
      return
    }
    if (!entry.remove(slot, this.before)) return
    if (entry.length === 1) this.postings[at] = entry.items[0]!
  }

  /** Builds every list from the written slots (a load), the words from the schema. */
  private buildLists(): void {
    this.all = new SlotList(this.used)
    this.byFilter.clear()
    this.byPoint.clear()
    // A map while loading (each word looked up once per row), two sorted arrays after.
    const byWord = new Map<string, SlotList | number>()
    // Only a load builds lists, into a feed of its own: every slot below `used` is a row.
    for (let slot = 0; slot < this.used; slot += 1) {
      this.all.push(slot)
      for (const key of this.keySets[this.keySetOf[slot]!]!) listOf(this.byFilter, key).push(slot)
      const point = this.pointOf(slot)
      if (point) this.byPoint.push(slot, point)
      for (const word of this.schema.searchWords(this.row(slot))) {
        const entry = byWord.get(word)
        if (entry === undefined) byWord.set(word, slot)
        else if (typeof entry === 'number') {
          if (entry === slot) continue
          const list = new SlotList(2)
          list.push(entry)
          list.push(slot)
          byWord.set(word, list)
        } else if (entry.items[entry.length - 1] !== slot) entry.push(slot)
      }
      this.noteExpiry(slot)
    }
    this.vocabulary = [...byWord.keys()].sort()
    this.postings = this.vocabulary.map((word) => byWord.get(word)!)
    if (!this.all.isSorted(this.before)) this.sortLists()
    this.trimLists()
  }

  private sortLists(): void {
    this.all.sort(this.before)
    for (const list of this.byFilter.values()) list.sort(this.before)
    this.byPoint.sort(this.before)
    for (const entry of this.postings) if (typeof entry !== 'number') entry.sort(this.before)
  }

  private trimLists(): void {
    this.texts.trim()
    this.all.trim()
    for (const list of this.byFilter.values()) list.trim()
    this.byPoint.trim()
    for (const entry of this.postings) if (typeof entry !== 'number') entry.trim()
  }

  /** Takes over another feed's content (a load built off to the side), in one step. */
  private adopt(next: ColumnarFeed): void {
    this.capacity = next.capacity
    this.used = next.used
    this.free = next.free
    this.ids = next.ids
    this.texts = next.texts
    this.createdAt = next.createdAt
    this.expiresAt = next.expiresAt
    this.sharedValues = next.sharedValues
    this.numberValues = next.numberValues
    this.keySetOf = next.keySetOf
    this.strings = next.strings
    this.stringIds = next.stringIds
    this.keySets = next.keySets
    this.keySetIds = next.keySetIds
    this.keys = next.keys
    this.all = next.all
    this.byFilter = next.byFilter
    this.byPoint = next.byPoint
    this.vocabulary = next.vocabulary
    this.postings = next.postings
    this.version += 1
    this.intersections.clear()
    this.nearAnswers.clear()
    this.cards.clear()
    this.nextExpiry = next.nextExpiry
  }

  private stringId(value: string): number {
    let id = this.stringIds.get(value)
    if (id === undefined) {
      id = this.strings.length
      this.strings.push(value)
      this.stringIds.set(value, id)
    }
    return id
  }

  private keyOf(key: string): string {
    const known = this.keys.get(key)
    if (known !== undefined) return known
    this.keys.set(key, key)
    return key
  }

  private keySetId(pairs: Iterable<readonly [string, string]>): number {
    const keys: string[] = []
    for (const [name, value] of pairs) {
      const key = filterKey(name, value)
      if (!keys.includes(key)) keys.push(key)
    }
    const name = keys.join('\u0001')
    let id = this.keySetIds.get(name)
    if (id === undefined) {
      id = this.keySets.length
      this.keySets.push(keys.map((key) => this.keyOf(key)))
      this.keySetIds.set(name, id)
    }
    return id
  }

  private noteExpiry(slot: number): void {
    const expiresAt = this.expiresAt[slot]!
    if (!Number.isNaN(expiresAt)) this.nextExpiry = Math.min(this.nextExpiry, expiresAt)
  }

  /** Expired rows leave the feed at their expiry, not at the next write. */
  private sweepExpired(): void {
    const now = this.now().getTime()
    if (now < this.nextExpiry) return
    this.nextExpiry = Infinity
    for (const slot of this.all.view().slice()) {
      if (this.expired(Number.isNaN(this.expiresAt[slot]!) ? null : this.expiresAt[slot]!, now)) {
        this.version += 1
        this.unindex(slot)
        this.cards.delete(slot)
        this.release(slot)
      } else this.noteExpiry(slot)
    }
  }
}

function filterKey(name: string, value: string): string {
  return `${name}\u0000${value}`
}

function listOf<K>(map: Map<K, SlotList>, key: K, capacity = 4): SlotList {
  let list = map.get(key)
  if (!list) map.set(key, (list = new SlotList(capacity)))
  return list
}

/** Index of the first word not before `word` (its place, if absent). */
function lowerBound(words: readonly string[], word: string): number {
  let low = 0
  let high = words.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (words[middle]! < word) low = middle + 1
    else high = middle
  }
  return low
}

function isAscending(words: readonly string[]): boolean {
  for (let i = 1; i < words.length; i += 1) if (!(words[i - 1]! < words[i]!)) return false
  return true
}

/** Lazily merges lists already in feed order, yielding each row once. */
function* mergeInOrder(
  lists: readonly Int32Array[],
  before: (a: number, b: number) => boolean,
): Generator<number> {
  if (lists.length === 1) {
    yield* lists[0]!
    return
  }
  // A binary heap of cursors, ordered by the row each points at.
  const heap = lists.filter((list) => list.length > 0).map((items) => ({ items, at: 0 }))
  const first = (i: number, j: number) =>
    before(heap[i]!.items[heap[i]!.at]!, heap[j]!.items[heap[j]!.at]!)
  const down = (start: number) => {
    for (let i = start; ;) {
      const left = 2 * i + 1
      const right = left + 1
      let best = i
      if (left < heap.length && first(left, best)) best = left
      if (right < heap.length && first(right, best)) best = right
      if (best === i) return
      ;[heap[i], heap[best]] = [heap[best]!, heap[i]!]
      i = best
    }
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i -= 1) down(i)
  let last = -1
  while (heap.length > 0) {
    const top = heap[0]!
    const slot = top.items[top.at]!
    // The same row under two words of one prefix ("move", "moving") comes out twice in a row.
    if (slot !== last) yield slot
    last = slot
    top.at += 1
    if (top.at >= top.items.length) {
      heap[0] = heap[heap.length - 1]!
      heap.pop()
    }
    if (heap.length > 0) down(0)
  }
}

/**
 * Word indexes ordered by how many rows hold each word, most first (by powers of two: a
 * counting pass, no sort of a million words), as a rank → index table.
 */
function byFrequency(postings: ReadonlyArray<SlotList | number>): Int32Array {
  // Bucket 0 holds the words of 2^31 rows or more, bucket 31 those of one row.
  const bucketOf = (entry: SlotList | number) =>
    typeof entry === 'number' ? 31 : Math.clz32(entry.length)
  const at = new Int32Array(33)
  for (const entry of postings) at[bucketOf(entry) + 1]! += 1
  for (let bucket = 1; bucket < at.length; bucket += 1) at[bucket]! += at[bucket - 1]!
  const byRank = new Int32Array(postings.length)
  postings.forEach((entry, word) => {
    const bucket = bucketOf(entry)
    byRank[at[bucket]!] = word
    at[bucket]! += 1
  })
  return byRank
}

/** Lists one after the other, in one array. */
function concatenated(lists: readonly Int32Array[]): Int32Array {
  const all = new Int32Array(lists.reduce((sum, list) => sum + list.length, 0))
  let at = 0
  for (const list of lists) {
    all.set(list, at)
    at += list.length
  }
  return all
}
