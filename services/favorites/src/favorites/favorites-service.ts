import type {
  FavoritePersonBody,
  FavoritePersonEntry,
  FavoritePostBody,
  FavoritePostEntry,
} from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  newEvent,
} from '@marketplace/service-kit'
import {
  fullNameOf,
  isDeletionPending,
  isVisiblePerson,
  isVisiblePost,
  type PeopleCatalog,
  type PostCatalog,
} from '@marketplace/read-models/catalogs'
import { favoriteId, type FavoriteDocument, type FavoriteKind } from './favorite-document'
import { isListedPerson, isListedPost, personEntry, postEntry } from './favorite-views'
import type { FavoritesRepository } from './favorites-repository'

interface Context {
  callerId: string
  requestId?: string
}

const ID = /^[0-9a-zA-Z_-]{1,64}$/

/** A target that can be saved: what it is, who owns it and what to call it in a notice. */
interface Target {
  id: string
  ownerId: string
  title: string
}

/**
 * Favorite posts and people. Each user keeps their own
 * lists (BOLA: every user id in a path or body must be the caller's). Saving twice keeps one
 * entry and is not an error; removing what is not saved is not one either. Each list holds
 * at most `maxPerKind` entries.
 */
export function createFavoritesService(deps: {
  favorites: FavoritesRepository
  posts: PostCatalog
  people: PeopleCatalog
  maxPerKind: number
  /** The people a user blocked or was blocked by (docs/blocking.md). */
  hiddenFrom?: (userId: string) => Promise<ReadonlySet<string>>
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())
  const hiddenFrom = deps.hiddenFrom ?? (async () => new Set<string>())

  function assertCaller(userId: unknown, context: Context): void {
    if (typeof userId !== 'string' || userId !== context.callerId) {
      throw new ForbiddenError('You can only access your own account')
    }
  }

  async function postTarget(postId: string, context: Context) {
    const entry = await deps.posts.findById(postId)
    // A post whose owner is in a deletion's grace period is answered as if it did not exist.
    if (!isVisiblePost(entry) || isDeletionPending(await deps.people.findById(entry.ownerId)))
      throw new NotFoundError(Messages.favorites.postNotFound, 'POST_NOT_FOUND')
    // A post of someone the caller blocked, or who blocked the caller, does not exist for them.
    if ((await hiddenFrom(context.callerId)).has(entry.ownerId))
      throw new NotFoundError(Messages.favorites.postNotFound, 'POST_NOT_FOUND')
    if (entry.ownerId === context.callerId) {
      throw new BadRequestError(Messages.favorites.ownPost, 'OWN_POST')
    }
    return { target: { id: postId, ownerId: entry.ownerId, title: entry.post.title }, entry }
  }

  async function personTarget(personId: string, context: Context) {
    if (personId === context.callerId) {
      throw new BadRequestError(Messages.favorites.yourself, 'OWN_PROFILE')
    }
    const person = await deps.people.findById(personId)
    if (
      !isVisiblePerson(person) ||
      isDeletionPending(person) ||
      (await hiddenFrom(context.callerId)).has(personId)
    ) {
      throw new NotFoundError(Messages.favorites.personNotFound, 'PERSON_NOT_FOUND')
    }
    if (!person.isWorker)
      throw new BadRequestError(Messages.requests.personNotWorker, 'NOT_A_WORKER')
    return { target: { id: personId, ownerId: personId, title: fullNameOf(person) }, person }
  }

  function event(
    type: 'favorite.added' | 'favorite.removed',
    favorite: FavoriteDocument,
    names: { userName: string; targetTitle: string },
    context: Context,
  ) {
    return newEvent(type, {
      aggregateId: favorite._id,
      actorId: context.callerId,
      requestId: context.requestId,
      data: {
        favoriteId: favorite._id,
        userId: favorite.userId,
        userName: names.userName,
        targetType: favorite.kind,
        targetId: favorite.targetId,
        targetOwnerId: favorite.targetOwnerId,
        targetTitle: names.targetTitle,
      },
    })
  }

  async function titleOfPerson(userId: string): Promise<string | undefined> {
    const person = await deps.people.findById(userId)
    return person ? fullNameOf(person) : undefined
  }

  async function callerName(context: Context): Promise<string> {
    return (await titleOfPerson(context.callerId)) || 'Someone'
  }

  /** Saves the target; `created` is false when it was already saved. */
  async function add(kind: FavoriteKind, target: Target, context: Context) {
    const id = favoriteId(context.callerId, kind, target.id)
    const existing = await deps.favorites.findById(id)
    if (existing) return { favorite: existing, created: false }
    if ((await deps.favorites.count(context.callerId, kind)) >= deps.maxPerKind) {
      const message =
        kind === 'post'
          ? Messages.favorites.tooManyPosts(deps.maxPerKind)
          : Messages.favorites.tooManyPeople(deps.maxPerKind)
      throw new ConflictError(message, 'FAVORITES_FULL')
    }
    const at = now()
    const favorite: FavoriteDocument = {
      _id: id,
      userId: context.callerId,
      kind,
      targetId: target.id,
      targetOwnerId: target.ownerId,
      createdAt: at,
      updatedAt: at,
    }
    const names = { userName: await callerName(context), targetTitle: target.title }
    const created = await deps.favorites.insert(favorite, [
      event('favorite.added', favorite, names, context),
    ])
    // Lost a race with the same save from another tab: the stored one is the answer.
    if (!created) return { favorite: (await deps.favorites.findById(id)) ?? favorite, created }
    return { favorite, created }
  }

  async function remove(kind: FavoriteKind, targetId: string, context: Context): Promise<void> {
    const id = favoriteId(context.callerId, kind, targetId)
    const existing = await deps.favorites.findById(id)
    if (!existing) return
    // The target may be gone already (its removal is what the event tells).
    const title =
      kind === 'post'
        ? (await deps.posts.findById(targetId))?.post.title
        : await titleOfPerson(targetId)
    const names = { userName: await callerName(context), targetTitle: title ?? '' }
    await deps.favorites.delete(id, [event('favorite.removed', existing, names, context)])
  }

  function readId(value: unknown, message: string): string {
    if (typeof value !== 'string' || !ID.test(value)) {
      throw new BadRequestError(message, 'INVALID_FAVORITE')
    }
    return value
  }

  return {
    /** POST /api/favorites/posts {userId, postId} */
    async addPost(body: FavoritePostBody, context: Context) {
      assertCaller(body.userId, context)
      const postId = readId(body.postId, Messages.favorites.invalidPost)
      const { target, entry } = await postTarget(postId, context)
      const { favorite, created } = await add('post', target, context)
      return { entry: postEntry(favorite, entry), created }
    },

    /** POST /api/favorites/people {userID, personID} */
    async addPerson(body: FavoritePersonBody, context: Context) {
      assertCaller(body.userID, context)
      const personId = readId(body.personID, Messages.favorites.invalidPerson)
      const { target, person } = await personTarget(personId, context)
      const { favorite, created } = await add('person', target, context)
      return { entry: personEntry(favorite, person, now()), created }
    },

    async removePost(userId: string, postId: string, context: Context) {
      assertCaller(userId, context)
      await remove('post', readId(postId, Messages.favorites.invalidPost), context)
    },

    async removePerson(userId: string, personId: string, context: Context) {
      assertCaller(userId, context)
      await remove('person', readId(personId, Messages.favorites.invalidPerson), context)
    },

    async listPosts(userId: string, context: Context): Promise<FavoritePostEntry[]> {
      assertCaller(userId, context)
      const favorites = await deps.favorites.list(userId, 'post')
      const posts = await deps.posts.findMany(favorites.map((f) => f.targetId))
      // Posts of an owner in a deletion's grace period are left out until they stay.
      const owners = await deps.people.findMany([...posts.values()].map((post) => post.ownerId))
      // Saved before a block: kept, but not shown while it lasts (docs/blocking.md).
      const hidden = await hiddenFrom(userId)
      return favorites.flatMap((f) => {
        const post = posts.get(f.targetId)
        return isListedPost(post) &&
          !isDeletionPending(owners.get(post.ownerId)) &&
          !hidden.has(post.ownerId)
          ? [postEntry(f, post)]
          : []
      })
    },

    async listPeople(userId: string, context: Context): Promise<FavoritePersonEntry[]> {
      assertCaller(userId, context)
      const favorites = await deps.favorites.list(userId, 'person')
      const people = await deps.people.findMany(favorites.map((f) => f.targetId))
      const hidden = await hiddenFrom(userId)
      const at = now()
      return favorites.flatMap((f) => {
        const person = people.get(f.targetId)
        return isListedPerson(person) && !hidden.has(f.targetId) ? [personEntry(f, person, at)] : []
      })
    },
  }
}

export type FavoritesService = ReturnType<typeof createFavoritesService>
