import { distinctWords, type SavedSearchCriteria } from '@marketplace/contracts/marketplace'
import { cellKey, cellKeysWithin, milesBetween, type LatLon } from '@marketplace/geo'
import type { Places } from './places'

/** What a saved search is matched on (its document's indexed fields). */
export interface IndexedSearch {
  _id: string
  userId: string
  criteria: SavedSearchCriteria
  paused: boolean
}

/** A post as its event tells it: what anyone may see. */
export interface MatchablePost {
  postId: string
  ownerId: string
  title: string
  infos: string
  location: string | null
  category: string
  paymentType: string[]
  contact: string | null
}

/**
 * Miles between a saved search's place and a post's location, or null when either is unknown
 * to the gazetteer (then the search's place is matched as words of the location instead).
 */
export type DistanceOf = (near: string, postLocation: string) => number | null

/**
 * A search with words is keyed by the first letters of its longest word (a longer word is
 * rarer, so fewer posts' words start like it): a search word is a prefix of a post's word.
 */
const PREFIX_LENGTH = 3
const ANY_CATEGORY = ''

interface Bucket {
  /** Searches with words, by the first PREFIX_LENGTH letters of their key word. */
  byPrefix: Map<string, Set<Entry>>
  /** Searches without words and with a place the gazetteer knows, in each grid cell of their radius. */
  byCell: Map<number, Set<Entry>>
  /** The other searches without words. */
  noWords: Set<Entry>
}

const categoryKey = (category: string | null) => (category ?? ANY_CATEGORY).toLowerCase()
const prefixOf = (word: string) => word.slice(0, PREFIX_LENGTH)
/** The word a search is keyed by: its longest (the first of equals), or undefined without words. */
const keyWordOf = (criteria: SavedSearchCriteria): string | undefined =>
  criteria.words.reduce<string | undefined>(
    (longest, word) => (longest === undefined || word.length > longest.length ? word : longest),
    undefined,
  )

/** Every word of `wanted` is the start of one of `words`. */
function everyWordStarts(wanted: string[], words: string[]): boolean {
  return wanted.every((term) => words.some((word) => word.startsWith(term)))
}

/** A post's words, cut once for all the searches it is checked against. */
export interface PreparedPost extends MatchablePost {
  words: string[]
  locationWords: string[]
}

export function preparePost(post: MatchablePost): PreparedPost {
  return {
    ...post,
    words: distinctWords(post.title, post.infos),
    locationWords: distinctWords(post.location),
  }
}

/**
 * Whether the post answers to the search, filter by filter as the feed reads them: category,
 * payment and contact equal (case aside), location and search words as word prefixes, and a
 * distance within the search's miles of its place.
 */
export function postMatches(
  criteria: SavedSearchCriteria,
  post: PreparedPost,
  distanceOf?: DistanceOf,
): boolean {
  const postWords = post.words
  if (criteria.feedType !== 'job') return false
  if (criteria.category && criteria.category.toLowerCase() !== post.category.toLowerCase())
    return false
  if (criteria.words.length > 0 && !everyWordStarts(criteria.words, postWords)) return false
  if (
    criteria.payment &&
    !post.paymentType.some((payment) => payment.toLowerCase() === criteria.payment!.toLowerCase())
  )
    return false
  if (criteria.contact && criteria.contact.toLowerCase() !== (post.contact ?? '').toLowerCase())
    return false
  const { locationWords } = post
  if (criteria.location && !everyWordStarts(distinctWords(criteria.location), locationWords))
    return false
  if (criteria.near) {
    // A post whose owner hid its location is placed nowhere: no distance, no match.
    if (!post.location) return false
    const miles = distanceOf?.(criteria.near, post.location) ?? null
    if (miles !== null) return miles <= (criteria.withinMiles ?? Infinity)
    // The gazetteer knows neither place (or is not there): the place's name as words, as the
    // feed's location filter reads it.
    const [city] = criteria.near.split(',')
    if (!everyWordStarts(distinctWords(city), locationWords)) return false
  }
  return true
}

/**
 * A search as the index checks it: its criteria cut once when it is put (lower case, words,
 * its place's point), so a post's check of a candidate is a few comparisons, with no string
 * cut or place looked up per candidate. The same filters as `postMatches`.
 */
interface Entry {
  search: IndexedSearch
  category: string | null
  payment: string | null
  contact: string | null
  words: string[]
  locationWords: string[] | null
  near: { point: LatLon | null; miles: number; cityWords: string[] } | null
  /** Where it sits: its category's bucket, and there its prefix, its cells or neither. */
  bucketKey: string
  prefix: string | null
  cells: number[] | null
}

/** A post cut once per match: its words, lower-cased fields, and its point when asked. */
interface PostToCheck {
  words: string[]
  locationWords: string[]
  category: string
  payments: string[]
  contact: string
  hasLocation: boolean
  /** The post's point, resolved on the first search with a place that asks (null: unknown). */
  point: () => LatLon | null
}

function entryMatches(entry: Entry, post: PostToCheck): boolean {
  if (entry.payment !== null && !post.payments.includes(entry.payment)) return false
  if (entry.contact !== null && entry.contact !== post.contact) return false
  if (entry.category !== null && entry.category !== post.category) return false
  if (entry.words.length > 0 && !everyWordStarts(entry.words, post.words)) return false
  if (entry.locationWords && !everyWordStarts(entry.locationWords, post.locationWords)) return false
  const { near } = entry
  if (near) {
    // A post whose owner hid its location is placed nowhere: no distance, no match.
    if (!post.hasLocation) return false
    const postPoint = near.point && post.point()
    if (near.point && postPoint) return milesBetween(near.point, postPoint) <= near.miles
    return everyWordStarts(near.cityWords, post.locationWords)
  }
  return true
}

function addTo<K>(map: Map<K, Set<Entry>>, key: K, entry: Entry): void {
  let entries = map.get(key)
  if (!entries) {
    entries = new Set()
    map.set(key, entries)
  }
  entries.add(entry)
}

/**
 * All saved searches of the job feed in memory, by category and then by the first letters of
 * their longest word, so a post is checked against the few searches that could match it rather
 * than all of them: those of its category or of none, whose key word starts like one of the
 * post's words; of those without words, the ones whose place is within reach of the post's
 * (a half-degree grid, each search in the cells its radius touches) and those with neither
 * words nor a known place. Paused searches stay out of the buckets (they tell nobody). A
 * worker-feed search waits for nothing here (no event announces a new worker profile as a
 * post); it is kept for the page it reopens.
 *
 * A search sits in exactly one list of one bucket, and a post reads each list once (its
 * category's bucket and the one of no category, its one cell, each distinct prefix of its
 * words), so the candidates are checked as they are read: no set of candidates is built.
 */
export function createSavedSearchIndex(options: { places?: Places } = {}) {
  const entries = new Map<string, Entry>()
  const buckets = new Map<string, Bucket>()
  /** Searches put with a place the gazetteer knows: only then is a post's place looked up. */
  let placedSearches = 0

  function bucketOf(key: string): Bucket {
    let bucket = buckets.get(key)
    if (!bucket) {
      bucket = { byPrefix: new Map(), byCell: new Map(), noWords: new Set() }
      buckets.set(key, bucket)
    }
    return bucket
  }

  function remove(id: string): void {
    const entry = entries.get(id)
    if (!entry) return
    entries.delete(id)
    if (entry.near?.point) placedSearches -= 1
    const bucket = buckets.get(entry.bucketKey)
    if (!bucket) return
    if (entry.prefix !== null) bucket.byPrefix.get(entry.prefix)?.delete(entry)
    else if (entry.cells) for (const cell of entry.cells) bucket.byCell.get(cell)?.delete(entry)
    else bucket.noWords.delete(entry)
  }

  function entryOf(search: IndexedSearch): Entry {
    const { criteria } = search
    const lower = (value: string | null) => (value ? value.toLowerCase() : null)
    // The gazetteer (about 27 MB, read on its first question) is read once a search has a place.
    const point = criteria.near && options.places ? options.places.placeOf(criteria.near) : null
    const keyWord = keyWordOf(criteria)
    return {
      search: {
        _id: search._id,
        userId: search.userId,
        criteria,
        paused: search.paused,
      },
      category: lower(criteria.category),
      payment: lower(criteria.payment),
      contact: lower(criteria.contact),
      words: criteria.words,
      locationWords: criteria.location ? distinctWords(criteria.location) : null,
      near: criteria.near
        ? {
            point,
            miles: criteria.withinMiles ?? Infinity,
            cityWords: distinctWords(criteria.near.split(',')[0]),
          }
        : null,
      bucketKey: categoryKey(criteria.category),
      prefix: keyWord === undefined ? null : prefixOf(keyWord),
      cells:
        keyWord === undefined && point ? cellKeysWithin(point, criteria.withinMiles ?? 25) : null,
    }
  }

  /** Adds the search, or replaces what the index held of it. */
  function put(search: IndexedSearch): void {
    remove(search._id)
    if (search.criteria.feedType !== 'job') return
    const entry = entryOf(search)
    entries.set(search._id, entry)
    if (entry.near?.point) placedSearches += 1
    if (search.paused) return
    const bucket = bucketOf(entry.bucketKey)
    if (entry.prefix !== null) addTo(bucket.byPrefix, entry.prefix, entry)
    else if (entry.cells) for (const cell of entry.cells) addTo(bucket.byCell, cell, entry)
    else bucket.noWords.add(entry)
  }

  /** The searches the post matches, neither paused nor its owner's. */
  function match(post: MatchablePost): IndexedSearch[] {
    const words = distinctWords(post.title, post.infos)
    const prefixes = new Set<string>()
    for (const word of words)
      for (let length = 1; length <= PREFIX_LENGTH; length += 1) prefixes.add(word.slice(0, length))
    let point: LatLon | null | undefined
    const postPoint = () => {
      if (point === undefined)
        point = post.location && options.places ? options.places.placeOf(post.location) : null
      return point
    }
    const toCheck: PostToCheck = {
      words,
      locationWords: distinctWords(post.location),
      category: post.category.toLowerCase(),
      payments: post.paymentType.map((payment) => payment.toLowerCase()),
      contact: (post.contact ?? '').toLowerCase(),
      hasLocation: Boolean(post.location),
      point: postPoint,
    }
    const postCell = placedSearches > 0 && post.location ? postPoint() : null
    const cell = postCell && cellKey(postCell)
    const matched: IndexedSearch[] = []
    const check = (candidates: Iterable<Entry> | undefined) => {
      if (!candidates) return
      for (const entry of candidates)
        if (entry.search.userId !== post.ownerId && entryMatches(entry, toCheck))
          matched.push(entry.search)
    }
    const own = categoryKey(post.category)
    for (const key of own === ANY_CATEGORY ? [own] : [own, ANY_CATEGORY]) {
      const bucket = buckets.get(key)
      if (!bucket) continue
      check(bucket.noWords)
      if (cell !== null) check(bucket.byCell.get(cell))
      for (const prefix of prefixes) check(bucket.byPrefix.get(prefix))
    }
    return matched
  }

  return { put, remove, match, size: () => entries.size }
}

export type SavedSearchIndex = ReturnType<typeof createSavedSearchIndex>
