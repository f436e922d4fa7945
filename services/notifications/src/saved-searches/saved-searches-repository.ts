import { MongoServerError, ObjectId, type Db } from 'mongodb'
import type { SavedSearchCriteria, SavedSearchEmail } from '@marketplace/contracts/marketplace'
import type { IndexDefinition } from '@marketplace/service-kit'

export const SAVED_SEARCHES_COLLECTION = 'saved_searches'
/** One document per user who has saved searches: how many, guarded so no write passes the limit. */
export const SAVED_SEARCH_OWNERS_COLLECTION = 'saved_search_owners'

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

export const savedSearchIndexes: IndexDefinition[] = [
  // Settings' list of one user, oldest first; the purge of a user.
  {
    collection: SAVED_SEARCHES_COLLECTION,
    keys: { userId: 1, createdAt: 1 },
    options: { name: 'user_created' },
  },
  // The matcher's catch-up with searches saved or changed on other instances: updatedAt > ?.
  {
    collection: SAVED_SEARCHES_COLLECTION,
    keys: { updatedAt: 1 },
    options: { name: 'updated' },
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
      return searches.findOneAndUpdate(
        { _id: id, userId },
        {
          $set: { ...changes, updatedAt: new Date() },
          // A search no longer on the daily digest drops what it had gathered for it.
          ...(unsetDigest ? { $unset: { digest: '', digestDueAt: '' } } : {}),
        },
        { returnDocument: 'after' },
      )
    },

    async remove(id: string, userId: string): Promise<boolean> {
      const result = await searches.deleteOne({ _id: id, userId })
      if (result.deletedCount === 1) await givePlace(userId)
      return result.deletedCount === 1
    },

    /** Every saved search, for the matcher's index at start (the fields it needs only). */
    all: () =>
      searches.find({}, { projection: { userId: 1, criteria: 1, paused: 1, updatedAt: 1 } }),

    /** Those saved or changed since `since` (the matcher's catch-up). */
    changedSince: (since: Date) =>
      searches
        .find(
          { updatedAt: { $gt: since } },
          { projection: { userId: 1, criteria: 1, paused: 1, updatedAt: 1 } },
        )
        .toArray(),

    /** The current state of candidates: deleted or paused ones since the index saw them drop out. */
    byIds: (ids: string[]) =>
      searches.find({ _id: { $in: ids } }, { projection: { digest: 0 } }).toArray(),

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

    async deleteOfUser(userId: string): Promise<void> {
      await searches.deleteMany({ userId })
      await owners.deleteOne({ _id: userId })
    },

    collection: searches,
  }
}

export type SavedSearchesRepository = ReturnType<typeof createSavedSearchesRepository>
export { isDuplicateKey }
