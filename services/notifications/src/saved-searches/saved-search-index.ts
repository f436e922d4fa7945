import { distinctWords, type SavedSearchCriteria } from '@marketplace/contracts/marketplace'
import { cellKey, cellKeysWithin } from '@marketplace/geo'
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
  /** Searches with words, by the first PREFIX_LENGTH letters of their first word. */
  byPrefix: Map<string, Set<string>>
  /** Searches without words and with a place the gazetteer knows, in each grid cell of their radius. */
  byCell: Map<number, Set<string>>
  /** The other searches without words. */
  noWords: Set<string>
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

function addTo<K>(map: Map<K, Set<string>>, key: K, id: string): void {
  let ids = map.get(key)
  if (!ids) {
    ids = new Set()
    map.set(key, ids)
  }
  ids.add(id)
}

/**
 * All saved searches of the job feed in memory, by category and then by the first letters of
 * their first word, so a post is checked against the few searches that could match it rather
 * than all of them: those of its category or of none, whose first word starts like one of the
 * post's words; of those without words, the ones whose place is within reach of the post's
 * (a half-degree grid, each search in the cells its radius touches) and those with neither
 * words nor a known place. A worker-feed search waits for nothing here (no event announces a
 * new worker profile as a post); it is kept for the page it reopens.
 */
export function createSavedSearchIndex(options: { places?: Places } = {}) {
  const entries = new Map<string, IndexedSearch>()
  const buckets = new Map<string, Bucket>()
  /** The grid cells each search with a place was put in. */
  const cellsOf = new Map<string, number[]>()
  const distanceOf: DistanceOf | undefined = options.places?.distanceOf

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
    const bucket = buckets.get(categoryKey(entry.criteria.category))
    const cells = cellsOf.get(id)
    cellsOf.delete(id)
    if (!bucket) return
    const keyWord = keyWordOf(entry.criteria)
    if (keyWord !== undefined) bucket.byPrefix.get(prefixOf(keyWord))?.delete(id)
    else if (cells) for (const cell of cells) bucket.byCell.get(cell)?.delete(id)
    else bucket.noWords.delete(id)
  }

  /** The grid cells a search without words reaches, or null without a place the gazetteer knows. */
  function cellsReached(criteria: SavedSearchCriteria): number[] | null {
    if (!criteria.near || !options.places) return null
    const point = options.places.placeOf(criteria.near)
    return point && cellKeysWithin(point, criteria.withinMiles ?? 25)
  }

  /** Adds the search, or replaces what the index held of it. */
  function put(search: IndexedSearch): void {
    remove(search._id)
    if (search.criteria.feedType !== 'job') return
    const entry: IndexedSearch = {
      _id: search._id,
      userId: search.userId,
      criteria: search.criteria,
      paused: search.paused,
    }
    entries.set(entry._id, entry)
    const bucket = bucketOf(categoryKey(entry.criteria.category))
    const keyWord = keyWordOf(entry.criteria)
    if (keyWord !== undefined) {
      addTo(bucket.byPrefix, prefixOf(keyWord), entry._id)
      return
    }
    const cells = cellsReached(entry.criteria)
    if (!cells) {
      bucket.noWords.add(entry._id)
      return
    }
    cellsOf.set(entry._id, cells)
    for (const cell of cells) addTo(bucket.byCell, cell, entry._id)
  }

  /** The searches the post matches, neither paused nor its owner's. */
  function match(post: MatchablePost): IndexedSearch[] {
    const prepared = preparePost(post)
    const prefixes = new Set<string>()
    for (const word of prepared.words)
      for (let length = 1; length <= PREFIX_LENGTH; length += 1) prefixes.add(word.slice(0, length))
    // The gazetteer (about 27 MB, read on its first question) is asked only once a search has a place.
    const postPoint =
      post.location && options.places && cellsOf.size > 0
        ? options.places.placeOf(post.location)
        : null
    const postCell = postPoint && cellKey(postPoint)
    const candidates = new Set<string>()
    for (const key of new Set([categoryKey(post.category), ANY_CATEGORY])) {
      const bucket = buckets.get(key)
      if (!bucket) continue
      for (const id of bucket.noWords) candidates.add(id)
      if (postCell !== null) for (const id of bucket.byCell.get(postCell) ?? []) candidates.add(id)
      for (const prefix of prefixes)
        for (const id of bucket.byPrefix.get(prefix) ?? []) candidates.add(id)
    }
    const matched: IndexedSearch[] = []
    for (const id of candidates) {
      const entry = entries.get(id)!
      if (entry.paused || entry.userId === post.ownerId) continue
      if (postMatches(entry.criteria, prepared, distanceOf)) matched.push(entry)
    }
    return matched
  }

  return { put, remove, match, size: () => entries.size }
}

export type SavedSearchIndex = ReturnType<typeof createSavedSearchIndex>
