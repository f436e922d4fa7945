import { MongoServerError, ObjectId, type Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  createUserLists,
  insertTombstone,
  insertWithEvents,
  type IndexDefinition,
} from '@marketplace/service-kit'
import {
  FAVORITES_COLLECTION,
  FAVORITE_TOMBSTONES_COLLECTION,
  type FavoriteDocument,
  type FavoriteKind,
} from './favorite-document'

/**
 * Each user's favorites of each kind, one document per user and kind addressed by `_id`
 * (service-kit lists/user-lists.ts, issue 19 §2): the lists and the capacity count read it
 * and each favorite by `_id`, never a query over every user's favorites. Beside them, the
 * favorites others made of the user's posts and of the user (`saved-post`, `saved-person`,
 * on the target's owner): what the stats count.
 */
export const FAVORITE_LISTS_COLLECTION = 'favorite_lists'

/** Indexes, equality then sort (docs/favorites.md lists the query each serves). */
export const favoriteIndexes: IndexDefinition[] = [
  // The one-time fill of a user's list from favorites stored before the lists; user.deleted.
  {
    collection: FAVORITES_COLLECTION,
    keys: { userId: 1, kind: 1, createdAt: -1 },
    options: { name: 'list_recent' },
  },
  // post.deleted and a person's user.deleted: every entry naming the target.
  { collection: FAVORITES_COLLECTION, keys: { targetId: 1 }, options: { name: 'by_target' } },
  // user.deleted: entries saving that user's posts.
  {
    collection: FAVORITES_COLLECTION,
    keys: { targetOwnerId: 1 },
    options: { name: 'by_target_owner' },
  },
  {
    collection: FAVORITES_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]

export function createFavoritesRepository(
  db: Db,
  hooks: { notifyOutbox(target: { collection: string; id: string }): void },
) {
  const favorites = db.collection<FavoriteDocument>(FAVORITES_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }
  const lists = createUserLists(db, FAVORITE_LISTS_COLLECTION)
  const KINDS: FavoriteKind[] = ['post', 'person']
  const savedList = (kind: FavoriteKind) => `saved-${kind}`
  type Entry = Pick<FavoriteDocument, '_id' | 'userId' | 'kind' | 'targetOwnerId'>
  const entryFields = { projection: { _id: 1, userId: 1, kind: 1, targetOwnerId: 1 } }
  /** Both lists an entry is on: its saver's, and its target owner's. */
  const unlist = (entry: Entry) =>
    Promise.all([
      lists.remove(entry.userId, entry.kind, [entry._id]),
      lists.remove(entry.targetOwnerId, savedList(entry.kind), [entry._id]),
    ])

  /** The user's favorites of one kind, newest first: the list, then each by `_id`. */
  async function listOf(userId: string, kind: FavoriteKind): Promise<FavoriteDocument[]> {
    const ids = await lists.ids(userId, kind, async () =>
      (await favorites.find({ userId, kind }, { projection: { _id: 1 } }).toArray()).map(
        ({ _id }) => _id,
      ),
    )
    const found = await Promise.all(ids.map((_id) => favorites.findOne({ _id }, withoutOutbox)))
    // Skipped: an id whose favorite is gone or not inserted yet (user-lists.ts says why).
    return found
      .filter(
        (doc): doc is FavoriteDocument =>
          doc !== null && doc.userId === userId && doc.kind === kind,
      )
      .sort(
        (a, b) =>
          b.createdAt.getTime() - a.createdAt.getTime() ||
          (a._id < b._id ? 1 : a._id > b._id ? -1 : 0),
      )
  }

  /** Deletes the entries `filter` names and takes each off its lists (after: a crash leaves ids the lists skip). */
  async function deleteEntries(
    filter: { targetId: string } | { targetOwnerId: string } | { userId: string },
  ) {
    const entries = await favorites.find(filter, entryFields).toArray()
    await favorites.deleteMany(filter)
    for (const entry of entries) await unlist(entry)
  }

  return {
    findById: (id: string) => favorites.findOne({ _id: id }, withoutOutbox),

    list: (userId: string, kind: FavoriteKind) => listOf(userId, kind),

    count: async (userId: string, kind: FavoriteKind) => (await listOf(userId, kind)).length,

    /** How many favorites of `kind` name `ownerId`'s posts (post) or `ownerId` (person). */
    async savedOf(ownerId: string, kind: FavoriteKind): Promise<number> {
      const ids = await lists.ids(ownerId, savedList(kind), async () =>
        (
          await favorites
            .find({ targetOwnerId: ownerId, kind }, { projection: { _id: 1 } })
            .toArray()
        ).map(({ _id }) => _id),
      )
      const found = await Promise.all(ids.map((_id) => favorites.findOne({ _id }, entryFields)))
      return found.filter((entry) => entry?.targetOwnerId === ownerId && entry.kind === kind).length
    },

    /** Stores the favorite with its event; false when it was already there (nothing written). */
    async insert(favorite: FavoriteDocument, events: DomainEvent[]): Promise<boolean> {
      // Listed first (a crash before the insert leaves an id the list skips). Saved twice,
      // the favorite's id is the same and already listed: nothing to take back on a refusal.
      await Promise.all([
        lists.add(favorite.userId, favorite.kind, favorite._id),
        lists.add(favorite.targetOwnerId, savedList(favorite.kind), favorite._id),
      ])
      try {
        await favorites.insertOne(insertWithEvents(favorite, events))
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) return false
        throw error
      }
      hooks.notifyOutbox({ collection: FAVORITES_COLLECTION, id: favorite._id })
      return true
    },

    /** Deletes the favorite with its events (tombstone first: service-kit tombstones.ts). */
    async delete(id: string, events: DomainEvent[]): Promise<boolean> {
      // The tombstone is named by a fresh id, not the favorite's (which holds the user id):
      // once published it keeps nothing of the user, so a purge need not look for it.
      const tombstoneId = await insertTombstone(
        db,
        FAVORITE_TOMBSTONES_COLLECTION,
        new ObjectId().toHexString(),
        events,
      )
      const entry = await favorites.findOne({ _id: id }, entryFields)
      const { deletedCount } = await favorites.deleteOne({ _id: id })
      if (entry) await unlist(entry)
      if (tombstoneId)
        hooks.notifyOutbox({ collection: FAVORITE_TOMBSTONES_COLLECTION, id: tombstoneId })
      return deletedCount === 1
    },

    /** The target is gone (post.deleted, or the person's user.deleted): nothing to announce. */
    deleteOfTarget: (targetId: string) => deleteEntries({ targetId }),

    /** user.deleted: the user's own lists, and every entry about them or their posts. */
    async deleteOfUser(userId: string): Promise<void> {
      await deleteEntries({ userId })
      await deleteEntries({ targetOwnerId: userId })
      await lists.forget(userId, [...KINDS, ...KINDS.map(savedList)])
    },
  }
}

export type FavoritesRepository = ReturnType<typeof createFavoritesRepository>
