import { ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  insertTombstone,
  insertWithEvents,
  findOneAndUpdateWithEvents,
  type IndexDefinition,
  type OutboxTarget,
} from '@marketplace/service-kit'
import { POSTS_COLLECTION, type PostDocument } from './post-document'

/**
 * Indexes, equality-sort-range (docs/posts.md lists the query each one serves). The public
 * feed and search are served by the in-process feed index (src/feed), which is loaded by a
 * natural-order scan; these serve the owner-scoped queries and the outbox.
 */
export const postIndexes: IndexDefinition[] = [
  // An owner's posts, newest first (my-jobs, the stats, the purge): userID = ?, sort
  // createdAt desc, _id desc.
  {
    collection: POSTS_COLLECTION,
    keys: { userID: 1, createdAt: -1, _id: -1 },
    options: { name: 'owner_recent' },
  },
  // The life notices' sweep: lifeNoticeAt <= now, soonest first (post-life-service.ts).
  {
    collection: POSTS_COLLECTION,
    keys: { lifeNoticeAt: 1 },
    options: { name: 'life_notice_due' },
  },
  {
    collection: POSTS_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]

export interface PostsRepository {
  newId(): string
  insert(post: PostDocument, events: DomainEvent[]): Promise<void>
  findById(id: string): Promise<PostDocument | null>
  findByIds(ids: readonly string[]): Promise<PostDocument[]>
  findByOwner(ownerId: string): Promise<PostDocument[]>
  /** Applies `update` to the post when `guard` still matches; answers the post after it. */
  update(
    id: string,
    update: UpdateFilter<PostDocument>,
    events: DomainEvent[],
    guard?: Filter<PostDocument>,
  ): Promise<PostDocument | null>
  /** Deletes the post; its events go out through a tombstone (see `deleteWithEvents`). */
  delete(id: string, events: DomainEvent[]): Promise<boolean>
  /** Every post, in natural order (the feed index's load). */
  findAll(): Promise<PostDocument[]>
  /** Posts whose life notice is due at `at`, soonest first: one query on `life_notice_due`. */
  dueForLifeNotice(at: Date, limit: number): Promise<PostDocument[]>
  /** Posts stored before the life notices existed (no `lifeNoticeAt` at all), up to `limit`. */
  withoutLifeNoticeField(limit: number): Promise<PostDocument[]>
}

/** A deleted post's events wait here for the relay: the post document itself is gone. */
export const POST_TOMBSTONES_COLLECTION = 'post_tombstones'

export function createPostsRepository(
  db: Db,
  hooks: {
    /** After a write that stored events: wakes the outbox relay for that document. */
    notifyOutbox(target: OutboxTarget): void
    /** After every change of a post: its state now (null once deleted), for the feed index. */
    postChanged(postId: string, post: PostDocument | null): void
  },
): PostsRepository {
  const posts = db.collection<PostDocument>(POSTS_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0 } }

  return {
    newId: () => new ObjectId().toHexString(),

    async insert(post, events) {
      await posts.insertOne(insertWithEvents(post, events))
      hooks.notifyOutbox({ collection: POSTS_COLLECTION, id: post._id, outbox: events })
      hooks.postChanged(post._id, post)
    },

    findById: (id) => posts.findOne({ _id: id }, { projection: { outbox: 0 } }),

    /** The posts of these ids (a page of requests' posts): one `$in` query. */
    async findByIds(ids) {
      if (ids.length === 0) return []
      return posts.find({ _id: { $in: [...new Set(ids)] } }, withoutOutbox).toArray()
    },

    /** The owner's posts, newest first: one query on `owner_recent`. */
    findByOwner: (ownerId) =>
      posts.find({ userID: ownerId }, withoutOutbox).sort({ createdAt: -1, _id: -1 }).toArray(),

    async update(id, update, events, guard = {}) {
      const result = await findOneAndUpdateWithEvents(
        posts,
        { ...guard, _id: id } as Filter<PostDocument>,
        update,
        events,
      )
      if (result) {
        if (events.length > 0) hooks.notifyOutbox({ collection: POSTS_COLLECTION, id })
        hooks.postChanged(id, result)
      }
      return result
    },

    async delete(id, events) {
      const tombstoneId = await insertTombstone(db, POST_TOMBSTONES_COLLECTION, id, events)
      if (tombstoneId)
        hooks.notifyOutbox({ collection: POST_TOMBSTONES_COLLECTION, id: tombstoneId })
      const { deletedCount } = await posts.deleteOne({ _id: id })
      hooks.postChanged(id, null)
      return deletedCount === 1
    },

    findAll: () => posts.find({}, { projection: { outbox: 0 }, batchSize: 1000 }).toArray(),

    dueForLifeNotice: (at, limit) =>
      posts
        .find({ lifeNoticeAt: { $lte: at } }, withoutOutbox)
        .sort({ lifeNoticeAt: 1 })
        .limit(limit)
        .toArray(),

    // The same index: a missing field is indexed as null, so the read finds only them.
    withoutLifeNoticeField: (limit) =>
      posts.find({ lifeNoticeAt: { $exists: false } }, withoutOutbox).limit(limit).toArray(),
  }
}
