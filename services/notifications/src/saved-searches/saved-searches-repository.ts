import { MongoServerError, ObjectId, type Db } from 'mongodb'
import type { SavedSearchCriteria, SavedSearchEmail } from '@marketplace/contracts/marketplace'
import type { IndexDefinition } from '@marketplace/service-kit'

export const SAVED_SEARCHES_COLLECTION = 'saved_searches'
/** One document per user who has saved searches: how many, guarded so no write passes the limit. */
export const SAVED_SEARCH_OWNERS_COLLECTION = 'saved_search_owners'
/**
 * Which searches were saved, changed or deleted when, for the other instances' indexes: one
 * document per CHANGE_BUCKET_MS of time, read by its `_id` (the matcher's catch-up).
 */
export const SAVED_SEARCH_CHANGES_COLLECTION = 'saved_search_changes'
/** The span of time one change document covers. */
export const CHANGE_BUCKET_MS = 5000
/** Change documents older than this are dropped: an instance further behind loads afresh. */
export const CHANGES_KEPT_MS = 10 * 60 * 1000
/**
 * Searches per batch of the index's load at start: one round trip per 5,000 rather than per
 * 101 (the driver's default first batch) halved the read of 100,000 on FerretDB, and a batch
 * stays well inside the driver's 10 s socket time-out on a loaded machine.
 */
export const LOAD_BATCH_SIZE = 5000

export interface SavedSearchDocument {
  _id: string
  userId: string
  name: string
  /** The home page's URL query, normalized (savedSearchQueryOf). */
  query: string
  criteria: SavedSearchCriteria
  paused: boolean
  email: SavedSearchEmail
  createdAt: Date
  updatedAt: Date
  /**
   * Daily digest: the matches not yet mailed (title and link), and when the digest is due.
   * Set when the first match of a day is stored; the digest sweep claims and clears it.
   */
  digest?: Array<{ message: string; link: string }>
  digestDueAt?: Date | null
}

interface OwnerDocument {
  _id: string
  count: number
}

/** The changes of one bucket of time: `<searchId>@<epoch ms>` per save, change or removal. */
interface ChangesDocument {
  _id: string
  entries: string[]
  at: Date
}

/** One change another instance made: which search, and when by its writer's clock. */
export interface SearchChange {
  searchId: string
  at: number
  /** The change as stored, unique per search and instant: what the catch-up remembers. */
  entry: string
}

const bucketOf = (ms: number) => Math.floor(ms / CHANGE_BUCKET_MS) * CHANGE_BUCKET_MS
/** What the index reads of a search. */
const INDEXED_FIELDS = { userId: 1, criteria: 1, paused: 1, updatedAt: 1 } as const

export const savedSearchIndexes: IndexDefinition[] = [
  // Settings' list of one user, oldest first; the purge of a user.
  {
    collection: SAVED_SEARCHES_COLLECTION,
    keys: { userId: 1, createdAt: 1 },
    options: { name: 'user_created' },
  },
  // Change documents past CHANGES_KEPT_MS dropped: at < ?. (They are read by `_id`.)
  {
    collection: SAVED_SEARCH_CHANGES_COLLECTION,
    keys: { at: 1 },
    options: { name: 'changes_at' },
  },
  // The daily digest sweep: digestDueAt <= now.
  {
    collection: SAVED_SEARCHES_COLLECTION,
    keys: { digestDueAt: 1 },
    options: { name: 'digest_due', sparse: true },
  },
]

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

export class SavedSearchLimitReached extends Error {}

/** Every read by a user is by `userId` (and `_id`): a user never reaches another's search. */
export function createSavedSearchesRepository(db: Db) {
  const searches = db.collection<SavedSearchDocument>(SAVED_SEARCHES_COLLECTION)
  const owners = db.collection<OwnerDocument>(SAVED_SEARCH_OWNERS_COLLECTION)
  const changes = db.collection<ChangesDocument>(SAVED_SEARCH_CHANGES_COLLECTION)

  /**
   * Notes the search as changed now, in the document of this bucket of time, for the other
   * instances' catch-up. Every write of a search goes through here after it landed.
   */
  async function noteChange(searchId: string): Promise<void> {
    const at = Date.now()
    const bucket = bucketOf(at)
    await changes.updateOne(
      { _id: String(bucket) },
      { $addToSet: { entries: `${searchId}@${at}` }, $setOnInsert: { at: new Date(bucket) } },
      { upsert: true },
    )
  }

  /** The current state of these searches, each read by `_id` (the missing ones left out). */
  async function byIds(ids: string[]): Promise<SavedSearchDocument[]> {
    const found = await Promise.all(
      ids.map((id) => searches.findOne({ _id: id }, { projection: { digest: 0 } })),
    )
    return found.filter((search) => search !== null)
  }

  /**
   * Takes one of the user's places, in one guarded write: the upsert of a user at the limit
   * finds no document under `count < max` and collides with the existing one.
   */
  async function takePlace(userId: string, max: number): Promise<void> {
    try {
      await owners.updateOne(
        { _id: userId, count: { $lt: max } },
        { $inc: { count: 1 } },
        { upsert: true },
      )
    } catch (error) {
      if (isDuplicateKey(error)) throw new SavedSearchLimitReached()
      throw error
    }
  }

  const givePlace = (userId: string) =>
    owners.updateOne({ _id: userId, count: { $gt: 0 } }, { $inc: { count: -1 } })

  return {
    async create(
      input: Omit<SavedSearchDocument, '_id' | 'createdAt' | 'updatedAt'>,
      max: number,
    ): Promise<SavedSearchDocument> {
      await takePlace(input.userId, max)
      const at = new Date()
      const document: SavedSearchDocument = {
        _id: new ObjectId().toHexString(),
        ...input,
        createdAt: at,
        updatedAt: at,
      }
      try {
        await searches.insertOne(document)
      } catch (error) {
        await givePlace(input.userId)
        throw error
      }
      await noteChange(document._id)
      return document
    },

    listOf: (userId: string) =>
      searches
        .find({ userId }, { projection: { digest: 0 } })
        .sort({ createdAt: 1 })
        .toArray(),

    findOfUser: (id: string, userId: string) => searches.findOne({ _id: id, userId }),

    findById: (id: string) => searches.findOne({ _id: id }),

    /** The user's search after the change, or null when it is not theirs (or gone). */
    async change(
      id: string,
      userId: string,
      changes: Partial<Pick<SavedSearchDocument, 'name' | 'email' | 'paused'>>,
    ): Promise<SavedSearchDocument | null> {
      const unsetDigest = changes.email !== undefined && changes.email !== 'daily'
      const changed = await searches.findOneAndUpdate(
        { _id: id, userId },
        {
          $set: { ...changes, updatedAt: new Date() },
          // A search no longer on the daily digest drops what it had gathered for it.
          ...(unsetDigest ? { $unset: { digest: '', digestDueAt: '' } } : {}),
        },
        { returnDocument: 'after' },
      )
      if (changed) await noteChange(id)
      return changed
    },

    async remove(id: string, userId: string): Promise<boolean> {
      const result = await searches.deleteOne({ _id: id, userId })
      if (result.deletedCount === 1) await Promise.all([givePlace(userId), noteChange(id)])
      return result.deletedCount === 1
    },

    /** Every saved search, for the matcher's index at start (the fields it needs only). */
    all: () => searches.find({}, { projection: INDEXED_FIELDS, batchSize: LOAD_BATCH_SIZE }),

    /**
     * The changes noted from `from` to `until` (epoch ms, by the writers' clocks): the few
     * documents of those buckets of time, each read by `_id`. Not `updatedAt > ?` on the
     * searches: the local FerretDB reads the whole collection for any filter but an `_id`
     * (25 s at 100,000 searches, past the 10 s socket time-out), and a deletion leaves no
     * document to find.
     */
    async changesBetween(from: number, until: number): Promise<SearchChange[]> {
      const keys: string[] = []
      for (let bucket = bucketOf(from); bucket <= until; bucket += CHANGE_BUCKET_MS)
        keys.push(String(bucket))
      const found = await Promise.all(keys.map((key) => changes.findOne({ _id: key })))
      return found.flatMap((document) =>
        (document?.entries ?? []).map((entry) => {
          const at = entry.lastIndexOf('@')
          return { searchId: entry.slice(0, at), at: Number(entry.slice(at + 1)), entry }
        }),
      )
    },

    /** Drops the change documents of buckets before `before`. */
    dropChangesBefore: (before: Date) => changes.deleteMany({ at: { $lt: before } }),

    /**
     * The current state of candidates: deleted or paused ones since the index saw them drop
     * out. One `findOne` by `_id` each, in parallel: FerretDB v1 does not push `$in` down
     * (docs/scale.md), and a `find({_id: {$in}})` read all 100,000 searches for one post.
     */
    byIds,

    /**
     * Keeps a match for the search's daily digest (at most `maxItems`), due `dueAt` unless a
     * digest is already due earlier: the first match of a day starts the day's clock.
     */
    async addToDigest(
      id: string,
      match: { message: string; link: string },
      dueAt: Date,
      maxItems: number,
    ): Promise<void> {
      await searches.updateOne(
        { _id: id, email: 'daily' },
        { $push: { digest: { $each: [match], $slice: -maxItems } }, $min: { digestDueAt: dueAt } },
      )
    },

    /**
     * Claims one due digest with one guarded write: the search whose digest was due at
     * `dueAt` gives it up (cleared), and only the sweep whose write matched sends it.
     * Answers the search as it was (with its matches), or null when none is due.
     */
    async claimDueDigest(at: Date): Promise<SavedSearchDocument | null> {
      const due = await searches.findOne(
        { digestDueAt: { $lte: at } },
        { projection: { _id: 1, digestDueAt: 1 } },
      )
      if (!due?.digestDueAt) return null
      return searches.findOneAndUpdate(
        { _id: due._id, digestDueAt: due.digestDueAt },
        { $unset: { digest: '', digestDueAt: '' } },
        { returnDocument: 'before' },
      )
    },

    /**
     * The user's searches go; the other instances' indexes notice at their next candidate
     * read (the search is gone by `_id`), so no change is noted for each.
     */
    async deleteOfUser(userId: string): Promise<void> {
      await searches.deleteMany({ userId })
      await owners.deleteOne({ _id: userId })
    },

    collection: searches,
  }
}

export type SavedSearchesRepository = ReturnType<typeof createSavedSearchesRepository>
export { isDuplicateKey }
