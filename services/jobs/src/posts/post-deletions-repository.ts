import type { Db } from 'mongodb'
import type { IndexDefinition } from '@marketplace/service-kit'

/**
 * Post deletions under way: one small document per post, keyed by the post's id, written
 * before the first step of a deletion and removed after its last (the post, its requests with
 * their events, its grants). A crash between steps leaves the document behind, and the sweep
 * (posts-service.ts `finishDeletions`) finishes the deletion from it. The collection holds
 * only deletions in flight, so the sweep's read stays small however many posts were deleted.
 */
export const POST_DELETIONS_COLLECTION = 'post_deletions'

export interface PostDeletionDocument {
  /** The post's id. */
  _id: string
  ownerId: string
  /** What post.deleted says, should the post be gone before the sweep reads it. */
  title: string
  /** Who asked (null: a cascade, such as the owner's account purge). */
  actorId: string | null
  requestId?: string
  startedAt: Date
}

export const postDeletionIndexes: IndexDefinition[] = [
  // The sweep: deletions started before an instant.
  {
    collection: POST_DELETIONS_COLLECTION,
    keys: { startedAt: 1 },
    options: { name: 'started' },
  },
]

export function createPostDeletionsRepository(db: Db) {
  const deletions = db.collection<PostDeletionDocument>(POST_DELETIONS_COLLECTION)

  return {
    /** Marks the deletion as begun; asking again keeps the first mark. */
    async begin(deletion: PostDeletionDocument): Promise<void> {
      const { _id, ...fields } = deletion
      await deletions.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true })
    },

    /** Deletions begun before `before` and not finished. */
    startedBefore: (before: Date) =>
      deletions
        .find({ startedAt: { $lt: before } })
        .sort({ startedAt: 1 })
        .toArray(),

    async finished(postId: string): Promise<void> {
      await deletions.deleteOne({ _id: postId })
    },
  }
}

export type PostDeletionsRepository = ReturnType<typeof createPostDeletionsRepository>
