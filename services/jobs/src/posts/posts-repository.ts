import { ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  createUserLists,
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
  // The one-time fill of an owner's list from posts stored before the lists (my-jobs reads
  // the list): userID = ?, sort createdAt desc, _id desc.
  {
    collection: POSTS_COLLECTION,
    keys: { userID: 1, createdAt: -1, _id: -1 },
    options: { name: 'owner_recent' },
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
  /** user.deleted, once the owner's posts are deleted: the owner's list of them goes too. */
  forgetOwner(ownerId: string): Promise<void>
  /** Every post, in natural order (the feed index's load). */
  findAll(): Promise<PostDocument[]>
}

/** A deleted post's events wait here for the relay: the post document itself is gone. */
export const POST_TOMBSTONES_COLLECTION = 'post_tombstones'
/**
 * Each owner's posts, one document per owner addressed by `_id` (service-kit
 * lists/user-lists.ts, issue 19 §2): my-jobs and the stats read it and each post by `_id`.
 */
export const POST_LISTS_COLLECTION = 'post_lists'
const LIST = 'own'

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
  const lists = createUserLists(db, POST_LISTS_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0 } }

  return {
    newId: () => new ObjectId().toHexString(),

    async insert(post, events) {
      // Listed first: a crash before the insert leaves an id the list skips.
      await lists.add(post.userID, LIST, post._id)
      await posts.insertOne(insertWithEvents(post, events))
      hooks.notifyOutbox({ collection: POSTS_COLLECTION, id: post._id, outbox: events })
      hooks.postChanged(post._id, post)
    },

    findById: (id) => posts.findOne({ _id: id }, { projection: { outbox: 0 } }),

    async findByIds(ids) {
      // One `_id` lookup each: on FerretDB only `_id` equality is pushed down, and the lists
      // here are a page of requests at most.
      const found = await Promise.all(
        [...new Set(ids)].map((id) => posts.findOne({ _id: id }, { projection: { outbox: 0 } })),
      )
      return found.filter((post): post is PostDocument => post !== null)
    },

    async findByOwner(ownerId) {
      const ids = await lists.ids(ownerId, LIST, async () =>
        (await posts.find({ userID: ownerId }, { projection: { _id: 1 } }).toArray()).map(
          ({ _id }) => _id,
        ),
      )
      const found = await Promise.all(ids.map((_id) => posts.findOne({ _id }, withoutOutbox)))
      // Skipped: an id whose post is gone or not inserted yet (user-lists.ts says why).
      return found
        .filter((post): post is PostDocument => post !== null && post.userID === ownerId)
        .sort(
          (a, b) =>
            b.createdAt.getTime() - a.createdAt.getTime() ||
            (a._id < b._id ? 1 : a._id > b._id ? -1 : 0),
        )
    },

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
      const owner = await posts.findOne({ _id: id }, { projection: { userID: 1 } })
      const tombstoneId = await insertTombstone(db, POST_TOMBSTONES_COLLECTION, id, events)
      if (tombstoneId)
        hooks.notifyOutbox({ collection: POST_TOMBSTONES_COLLECTION, id: tombstoneId })
      const { deletedCount } = await posts.deleteOne({ _id: id })
      // Unlisted after the delete: a crash in between leaves an id the list skips.
      if (owner) await lists.remove(owner.userID, LIST, [id])
      hooks.postChanged(id, null)
      return deletedCount === 1
    },

    forgetOwner: (ownerId) => lists.forget(ownerId, [LIST]),

    findAll: () => posts.find({}, { projection: { outbox: 0 }, batchSize: 1000 }).toArray(),
  }
}
