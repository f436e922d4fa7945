import { MongoServerError, ObjectId, type Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
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

/** Indexes, equality then sort (docs/favorites-and-reports.md lists the query each serves). */
export const favoriteIndexes: IndexDefinition[] = [
  // A user's favorites of one kind, newest first (`_id` breaking ties), and their count (the
  // cap per kind); user.deleted of the saver.
  {
    collection: FAVORITES_COLLECTION,
    keys: { userId: 1, kind: 1, createdAt: -1, _id: -1 },
    options: { name: 'list_in_order' },
  },
  // post.deleted and a person's user.deleted: every entry naming the target.
  { collection: FAVORITES_COLLECTION, keys: { targetId: 1 }, options: { name: 'by_target' } },
  // user.deleted: entries saving that user's posts (the stats' index, by_target_owner_kind,
  // starts with the owner too: stats/favorites-stats.ts).
  {
    collection: FAVORITES_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]

export function createFavoritesRepository(
  db: Db,
  hooks: { notifyOutbox(target: { collection: string; id: string }): void },
  options: { maxPerKind: number },
) {
  const favorites = db.collection<FavoriteDocument>(FAVORITES_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }

  return {
    findById: (id: string) => favorites.findOne({ _id: id }, withoutOutbox),

    /**
     * The user's favorites of one kind, newest first: one query on `list_in_order`, at most
     * the cap per kind (saving past it is refused, so this is all of them).
     */
    list: (userId: string, kind: FavoriteKind): Promise<FavoriteDocument[]> =>
      favorites
        .find({ userId, kind }, withoutOutbox)
        .sort({ createdAt: -1, _id: -1 })
        .limit(options.maxPerKind)
        .toArray(),

    count: (userId: string, kind: FavoriteKind) => favorites.countDocuments({ userId, kind }),

    /** How many favorites of `kind` name `ownerId`'s posts (post) or `ownerId` (person). */
    savedOf: (ownerId: string, kind: FavoriteKind) =>
      favorites.countDocuments({ targetOwnerId: ownerId, kind }),

    /** Stores the favorite with its event; false when it was already there (nothing written). */
    async insert(favorite: FavoriteDocument, events: DomainEvent[]): Promise<boolean> {
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
      const { deletedCount } = await favorites.deleteOne({ _id: id })
      if (tombstoneId)
        hooks.notifyOutbox({ collection: FAVORITE_TOMBSTONES_COLLECTION, id: tombstoneId })
      return deletedCount === 1
    },

    /** The target is gone (post.deleted, or the person's user.deleted): nothing to announce. */
    deleteOfTarget: async (targetId: string) => {
      await favorites.deleteMany({ targetId })
    },

    /** user.deleted: the user's own favorites, and every entry about them or their posts. */
    async deleteOfUser(userId: string): Promise<void> {
      await favorites.deleteMany({ userId })
      await favorites.deleteMany({ targetOwnerId: userId })
    },
  }
}

export type FavoritesRepository = ReturnType<typeof createFavoritesRepository>
