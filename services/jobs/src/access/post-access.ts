import { MongoServerError, type Db } from 'mongodb'
import type { IndexDefinition } from '@marketplace/service-kit'

/**
 * The invitations that let a worker see a post's hidden location and contact: the owner asked
 * them for the post and they accepted (people-request.decided). One document per (post, user),
 * addressed by `_id`, so granting is an insert and taking back a delete, and a grant never
 * rewrites the post (whose document also carries its outbox).
 *
 * An accepted request on the post grants the same view, but it is no row here: it is read
 * from the request itself (post-readers.ts), so a decision and its access are one write and
 * cannot disagree. Rows of the route `request` that earlier versions wrote
 * are ignored, and deleted at start-up.
 */
export const POST_ACCESS_COLLECTION = 'post_access'


/** invitation: the owner asked the user; request: an earlier version's grant, now derived. */
type AccessRoute = 'request' | 'invitation'

interface PostAccessDocument {
  _id: string
  postId: string
  userId: string
  via: AccessRoute
  grantedAt: Date
}

export const postAccessIndexes: IndexDefinition[] = [
  // Details, lists and the feed's refresh read the users of the posts they show.
  { collection: POST_ACCESS_COLLECTION, keys: { postId: 1 }, options: { name: 'by_post' } },
  // user.deleted removes everything of one user.
  { collection: POST_ACCESS_COLLECTION, keys: { userId: 1 }, options: { name: 'by_user' } },
  // The start-up deletion of the request grants earlier versions left.
  { collection: POST_ACCESS_COLLECTION, keys: { via: 1 }, options: { name: 'by_route' } },
]

export function createPostAccess(db: Db) {
  const access = db.collection<PostAccessDocument>(POST_ACCESS_COLLECTION)
  const invitationId = (postId: string, userId: string) => `${postId}:invitation:${userId}`

  /** Adds each row's user to its post's list, once; rows of another route are not grants. */
  function addInvitation(result: Map<string, string[]>, row: PostAccessDocument) {
    if (row.via !== 'invitation') return
    const users = result.get(row.postId) ?? []
    if (!users.includes(row.userId)) users.push(row.userId)
    result.set(row.postId, users)
  }

  return {
    async invite(postId: string, userId: string): Promise<void> {
      try {
        await access.insertOne({
          _id: invitationId(postId, userId),
          postId,
          userId,
          via: 'invitation',
          grantedAt: new Date(),
        })
      } catch (error) {
        // Already granted: the same effect.
        if (!(error instanceof MongoServerError && error.code === 11000)) throw error
      }
    },

    async uninvite(postId: string, userId: string): Promise<void> {
      await access.deleteOne({ _id: invitationId(postId, userId) })
    },

    /** The invited users of each post named: one query on `by_post`. */
    async invitedTo(postIds: readonly string[]): Promise<Map<string, string[]>> {
      const result = new Map<string, string[]>()
      if (postIds.length === 0) return result
      const rows = await access.find({ postId: { $in: [...new Set(postIds)] } }).toArray()
      for (const row of rows) addInvitation(result, row)
      return result
    },

    /** Whether the user was invited to the post: one read by `_id`. */
    async isInvited(postId: string, userId: string): Promise<boolean> {
      const row = await access.findOne({ _id: invitationId(postId, userId) })
      return row?.via === 'invitation'
    },

    /** Every invitation, for the feed index's start-up load. */
    async allInvitations(): Promise<Map<string, string[]>> {
      const result = new Map<string, string[]>()
      for await (const row of access.find({})) addInvitation(result, row)
      return result
    },

    /** Start-up: the request grants earlier versions wrote, which nothing reads any more. */
    async deleteLeftoverRequestGrants(): Promise<number> {
      const { deletedCount } = await access.deleteMany({ via: 'request' })
      return deletedCount
    },

    async deleteOfPost(postId: string): Promise<void> {
      await access.deleteMany({ postId })
    },

    /** user.deleted: the user's invitations. */
    async deleteOfUser(userId: string): Promise<void> {
      await access.deleteMany({ userId })
    },
  }
}

export type PostAccess = ReturnType<typeof createPostAccess>
