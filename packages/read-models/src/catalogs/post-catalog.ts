import type { Db } from 'mongodb'
import type { DomainEvent, EventData } from '@marketplace/contracts/events'
import type { EventHandlers, IndexDefinition } from '@marketplace/service-kit'

/**
 * A read model of posts for services that show or check posts they do not own (favorites,
 * reports), fed by post.created / .updated / .deleted. It holds only what the events carry,
 * which is what a stranger may see: a hidden location or contact is already null there, and
 * who was accepted never leaves the jobs service.
 */
export type PublicPost = EventData<'post.created'>

export interface CatalogPost {
  _id: string
  ownerId: string
  post: PublicPost
  /** The post's own updatedAt: an older event (a replay) changes nothing. */
  updatedAt: Date
}

/**
 * A catalog post as a response body, in the shape the jobs service answers a guest with. The
 * privacy flags are applied again here: entries stored from events published before a private
 * contact's method was withheld still hold it, and must not show it.
 */
export function toPublicPostView(entry: CatalogPost) {
  const { post } = entry
  return {
    _id: post.postId,
    jobID: post.postId,
    userID: post.ownerId,
    title: post.title,
    location: post.displayLocation ? post.location : null,
    jobStartEnd: post.jobStartEnd,
    salary: post.salary,
    paymentType: post.paymentType,
    contact: post.displayContact ? post.contact : null,
    infos: post.infos,
    displayLocation: post.displayLocation,
    displayContact: post.displayContact,
    jobPicture: post.jobPicture,
    category: post.category,
    isOnline: post.isOnline,
    expirationDate: post.expirationDate,
    authorizedUsers: [] as string[],
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
  }
}

export type PublicPostView = ReturnType<typeof toPublicPostView>

/** Whether anyone but the owner may still see the post (a take-down hides it for good). */
export const isVisiblePost = (entry: CatalogPost | null | undefined): entry is CatalogPost =>
  !!entry && entry.post.takenDown !== true

export function postCatalogIndexes(collection: string): IndexDefinition[] {
  // user.deleted removes one owner's posts.
  return [{ collection, keys: { ownerId: 1 }, options: { name: 'by_owner' } }]
}

export function createPostCatalog(
  db: Db,
  options: {
    collection: string
    /** After post.deleted removed the entry: the service drops what referred to it. */
    onDeleted?: (event: DomainEvent<'post.deleted'>) => Promise<void>
  },
) {
  const posts = db.collection<CatalogPost>(options.collection)

  const changed = async (event: DomainEvent<'post.created'> | DomainEvent<'post.updated'>) => {
    const { data } = event
    const updatedAt = new Date(data.updatedAt)
    // Events of one post arrive in order (keyed by post id), so read-compare-write is enough;
    // the comparison only stops a replay of an older version from winning.
    const current = await posts.findOne({ _id: data.postId })
    if (current && current.updatedAt.getTime() > updatedAt.getTime()) return
    await posts.replaceOne(
      { _id: data.postId },
      { ownerId: data.ownerId, post: data, updatedAt },
      { upsert: true },
    )
  }

  const handlers: EventHandlers = {
    'post.created': changed,
    'post.updated': changed,
    // No marker is kept: after an owner's purge nothing of theirs may stay, and events of
    // one post come in order, so nothing older can arrive after its deletion.
    'post.deleted': async (event) => {
      await posts.deleteOne({ _id: event.data.postId })
      await options.onDeleted?.(event)
    },
  }

  return {
    handlers,
    findById: (postId: string) => posts.findOne({ _id: postId }),
    async findMany(postIds: readonly string[]): Promise<Map<string, CatalogPost>> {
      if (postIds.length === 0) return new Map()
      const found = await posts.find({ _id: { $in: [...postIds] } }).toArray()
      return new Map(found.map((entry) => [entry._id, entry]))
    },
    /** user.deleted: the owner's posts (jobs deletes them too; this does not wait for it). */
    deleteOfOwner: async (ownerId: string) => {
      await posts.deleteMany({ ownerId })
    },
  }
}

export type PostCatalog = ReturnType<typeof createPostCatalog>
