import { MongoServerError, type Db } from 'mongodb'
import type { IndexDefinition } from '@marketplace/service-kit'

/**
 * Who may see a post's hidden location and contact besides its owner: one document per
 * (post, user, route), addressed by `_id`. Granting is an insert and taking back a delete, so
 * a grant never rewrites the post (whose document also carries its outbox), and each route
 * is taken back on its own: a withdrawn request leaves an invitation's grant in place.
 */
export const POST_ACCESS_COLLECTION = 'post_access'

/** request: the post owner accepted the user's request; invitation: the owner asked them. */
export type AccessRoute = 'request' | 'invitation'

interface PostAccessDocument {
  _id: string
  postId: string
  userId: string
  via: AccessRoute
  grantedAt: Date
}

export const postAccessIndexes: IndexDefinition[] = [
  // Details, lists and the feed's refresh read the users of one post.
  { collection: POST_ACCESS_COLLECTION, keys: { postId: 1 }, options: { name: 'by_post' } },
  // user.deleted removes everything of one user.
  { collection: POST_ACCESS_COLLECTION, keys: { userId: 1 }, options: { name: 'by_user' } },
]

export function createPostAccess(db: Db) {
  const access = db.collection<PostAccessDocument>(POST_ACCESS_COLLECTION)
  const idOf = (postId: string, userId: string, via: AccessRoute) => `${postId}:${via}:${userId}`

  return {
    async grant(postId: string, userId: string, via: AccessRoute): Promise<void> {
      try {
        await access.insertOne({
          _id: idOf(postId, userId, via),
          postId,
          userId,
          via,
          grantedAt: new Date(),
        })
      } catch (error) {
        // Already granted: the same effect.
        if (!(error instanceof MongoServerError && error.code === 11000)) throw error
      }
    },

    async revoke(postId: string, userId: string, via: AccessRoute): Promise<void> {
      await access.deleteOne({ _id: idOf(postId, userId, via) })
    },

    /** The users authorized on each post named (both routes, each user once). */
    async usersOf(postIds: readonly string[]): Promise<Map<string, string[]>> {
      const result = new Map<string, string[]>()
      if (postIds.length === 0) return result
      const rows = await access.find({ postId: { $in: [...new Set(postIds)] } }).toArray()
      for (const row of rows) {
        const users = result.get(row.postId) ?? []
        if (!users.includes(row.userId)) users.push(row.userId)
        result.set(row.postId, users)
      }
      return result
    },

    /** Every grant, for the feed index's start-up load. */
    async all(): Promise<Map<string, string[]>> {
      const result = new Map<string, string[]>()
      for await (const row of access.find({})) {
        const users = result.get(row.postId) ?? []
        if (!users.includes(row.userId)) users.push(row.userId)
        result.set(row.postId, users)
      }
      return result
    },

    async deleteOfPost(postId: string): Promise<void> {
      await access.deleteMany({ postId })
    },

    async deleteOfUser(userId: string): Promise<void> {
      await access.deleteMany({ userId })
    },
  }
}

export type PostAccess = ReturnType<typeof createPostAccess>
