import type { Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import type { IndexDefinition } from '@marketplace/service-kit'

/**
 * What the people service knows of posts (from post.created / .updated / .deleted): enough to
 * check that a people request names a post of the caller's that is online, and to show its
 * title. A deleted post is kept as a marker, so an older event replayed after the deletion
 * cannot bring it back; user.deleted removes the owner's entries, markers included.
 */
export const KNOWN_POSTS_COLLECTION = 'known_posts'

export interface KnownPost {
  _id: string
  ownerId: string
  title: string
  isOnline: boolean
  expirationDate: string | null
  deleted: boolean
  /** The post's own updatedAt: an event older than what is stored changes nothing. */
  updatedAt: Date
}

export const knownPostIndexes: IndexDefinition[] = [
  // user.deleted removes one owner's posts.
  { collection: KNOWN_POSTS_COLLECTION, keys: { ownerId: 1 }, options: { name: 'by_owner' } },
]

/** Online, not deleted and not past its expiration date: a post that accepts requests. */
export function acceptsRequests(post: KnownPost | null, now = new Date()): post is KnownPost {
  if (!post || post.deleted || !post.isOnline) return false
  return post.expirationDate === null || post.expirationDate >= now.toISOString().slice(0, 10)
}

export function createKnownPosts(db: Db) {
  const posts = db.collection<KnownPost>(KNOWN_POSTS_COLLECTION)

  async function store(next: KnownPost): Promise<void> {
    // Events of one post arrive in order (keyed by post id), so read-compare-write is enough;
    // the comparison only guards against a replay.
    const current = await posts.findOne({ _id: next._id })
    if (current && current.updatedAt.getTime() > next.updatedAt.getTime()) return
    if (current?.deleted) return
    const { _id, ...fields } = next
    await posts.replaceOne({ _id }, fields, { upsert: true })
  }

  const changed = async (event: DomainEvent<'post.created'> | DomainEvent<'post.updated'>) => {
    const { data } = event
    await store({
      _id: data.postId,
      ownerId: data.ownerId,
      title: data.title,
      isOnline: data.isOnline,
      expirationDate: data.expirationDate,
      deleted: false,
      updatedAt: new Date(data.updatedAt),
    })
  }

  return {
    findById: (postId: string) => posts.findOne({ _id: postId }),
    handlers: {
      'post.created': changed,
      'post.updated': changed,
      // Marks a known post; an unknown one stays unknown (after its owner's purge, the jobs
      // service's own cascade deletes their posts, and nothing of them may come back here).
      'post.deleted': async (event: DomainEvent<'post.deleted'>) => {
        await posts.updateOne(
          { _id: event.data.postId },
          { $set: { deleted: true, isOnline: false, updatedAt: new Date(event.occurredAt) } },
        )
      },
    },
    deleteOfOwner: async (ownerId: string) => {
      await posts.deleteMany({ ownerId })
    },
  }
}

export type KnownPosts = ReturnType<typeof createKnownPosts>
