import type { JobPost, JobPostCreateBody, JobPostUpdateBody } from '@marketplace/contracts/api'
import { locatePlace } from '@marketplace/geo'
import { NotFoundError } from '@marketplace/service-kit'
import type { PostAccess } from '../access/post-access'
import type { PostReaders } from '../access/post-readers'
import type { PostDeletionDocument, PostDeletionsRepository } from './post-deletions-repository'
import { isShownToOthers, type PostDocument } from './post-document'
import { derivedFields, readNewPost, readPostChanges } from './post-input'
import { postChangedEvent, postDeletedEvent } from './post-events'
import { nextLifeNoticeAt } from './post-life'
import { toPostView } from './post-view'
import type { PostsRepository } from './posts-repository'

export interface Context {
  callerId: string
  requestId?: string
}

/**
 * The post use cases: create, change, delete, and the moderation and account-deletion
 * effects. Every change stores its event with it (outbox), and the feed index follows
 * through the repository's hook.
 */
export function createPostsService(deps: {
  posts: PostsRepository
  /** Invitations: written by setInvitee, deleted with a post or a user. */
  access: PostAccess
  /** Who may see each post's hidden fields (accepted requests and invitations). */
  readers: PostReaders
  /** After a grant changed: the feed index re-reads the post's grants. */
  onAccessChanged(postId: string): void
  /** Whether the user is in a deletion's grace period (user directory). */
  isOwnerLeaving(userId: string): Promise<boolean>
  /** Whether either of two users blocked the other (docs/blocking.md). */
  isBlockedBetween?(userId: string, otherId: string): Promise<boolean>
  /** Deletions under way, finished by `finishDeletions` after a crash. */
  deletions: PostDeletionsRepository
  /** Removes the requests on a post that is going, each with its event (requests module). */
  discardRequestsOfPost(
    postId: string,
    context: { callerId: string | null; requestId?: string },
  ): Promise<void>
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  const notFound = () => new NotFoundError('Post not found', 'POST_NOT_FOUND')

  /** Our ids are ObjectIds in hex; anything else names no post (404, never a 500). */
  function checkedId(postId: string): string {
    if (!/^[0-9a-f]{24}$/.test(postId)) throw notFound()
    return postId
  }

  /** The caller's own post, or 404: someone else's post is answered as if it did not exist. */
  async function ownPost(postId: string, callerId: string): Promise<PostDocument> {
    const post = await deps.posts.findById(checkedId(postId))
    if (!post || post.userID !== callerId) throw notFound()
    return post
  }

  async function viewFor(post: PostDocument, viewerId: string | null): Promise<JobPost> {
    const access = await deps.readers.usersOf([post._id])
    return toPostView(post, viewerId, access.get(post._id))
  }

  /**
   * A post's details (GET /api/jobs/{id}); a taken-down post, or one whose owner is in a
   * deletion's grace period, exists only for its owner.
   */
  async function read(postId: string, viewerId: string | null): Promise<JobPost> {
    const post = await deps.posts.findById(checkedId(postId))
    if (!post || (!isShownToOthers(post) && post.userID !== viewerId)) throw notFound()
    // A post of someone the viewer blocked, or who blocked the viewer, does not exist for them.
    if (viewerId && (await deps.isBlockedBetween?.(viewerId, post.userID))) throw notFound()
    return viewFor(post, viewerId)
  }

  /** My posts: the owner's view of each, newest first. */
  async function listOwn(ownerId: string): Promise<JobPost[]> {
    const posts = await deps.posts.findByOwner(ownerId)
    const access = await deps.readers.usersOf(posts.map((post) => post._id))
    return posts.map((post) => toPostView(post, ownerId, access.get(post._id)))
  }

  async function create(body: JobPostCreateBody, context: Context): Promise<JobPost> {
    const at = now()
    const fields = readNewPost(body, context.callerId, at)
    const rest: Omit<typeof fields, 'category'> & { category?: string } = { ...fields }
    delete rest.category // derivedFields decides it, from the choice or the words
    const post: PostDocument = {
      _id: deps.posts.newId(),
      userID: context.callerId,
      ...rest,
      ...derivedFields(fields),
      geo: locatePlace(fields.location),
      isOnline: true,
      takenDown: false,
      createdAt: at,
      updatedAt: at,
    }
    post.lifeNoticeAt = nextLifeNoticeAt(post)
    await deps.posts.insert(post, [
      postChangedEvent('post.created', post, {
        actorId: context.callerId,
        requestId: context.requestId,
      }),
    ])
    return toPostView(post, context.callerId)
  }

  async function update(
    postId: string,
    body: JobPostUpdateBody,
    context: Context,
  ): Promise<JobPost> {
    return viewFor(await applyChanges(postId, body, context), context.callerId)
  }

  async function applyChanges(
    postId: string,
    body: JobPostUpdateBody,
    context: Context,
  ): Promise<PostDocument> {
    const current = await ownPost(postId, context.callerId)
    const at = now()
    const changes = readPostChanges(body, current, context.callerId, at)
    const { category: chosen, ...rest } = changes
    const next: PostDocument = { ...current, ...rest, updatedAt: at }
    const derived = derivedFields({
      title: next.title,
      infos: next.infos,
      expirationDate: next.expirationDate,
      category: chosen,
    })
    next.searchWords = derived.searchWords
    next.expiresAt = derived.expiresAt
    // The gazetteer is asked again only when the text changes (an older post keeps resolving
    // on load until then).
    if (rest.location !== undefined && rest.location !== current.location)
      next.geo = locatePlace(next.location)
    // docs/posts.md "Categories": without a choice the post keeps its category, except that a
    // guess (never chosen) is guessed again when the words it came from change; the title
    // cannot change, so that is the infos.
    const guessAgain = current.categoryExplicit !== true && next.infos !== current.infos
    if (chosen !== undefined || guessAgain) {
      next.category = derived.category
      next.categoryExplicit = derived.categoryExplicit
    }
    // A taken-down post stays offline whatever the owner sends.
    if (current.takenDown) next.isOnline = false
    const set: Partial<PostDocument> = {
      ...rest,
      isOnline: next.isOnline,
      category: next.category,
      categoryExplicit: next.categoryExplicit === true,
      searchWords: next.searchWords,
      expiresAt: next.expiresAt,
      updatedAt: at,
      ...(next.geo !== current.geo && { geo: next.geo }),
    }
    // A new expiry date has its own warning and notice; an unchanged one keeps where the
    // sweep is (it may be claiming it right now: post-life-service.ts).
    if ((next.expiresAt?.getTime() ?? null) !== (current.expiresAt?.getTime() ?? null)) {
      next.lifeNoticeAt = nextLifeNoticeAt(next)
      set.lifeNoticeAt = next.lifeNoticeAt
    }
    const event = postChangedEvent('post.updated', next, {
      actorId: context.callerId,
      requestId: context.requestId,
    })
    // Optimistic concurrency, guarded by updatedAt: when another edit landed since we read
    // the post, the change is recomputed on the fresh post rather than overwriting it.
    const saved = await deps.posts.update(postId, { $set: set }, [event], {
      updatedAt: current.updatedAt,
    })
    if (!saved) return applyChanges(postId, body, context)
    return saved
  }

  async function remove(postId: string, context: Context): Promise<void> {
    const post = await ownPost(postId, context.callerId)
    await deleteWithEverything(post, context.callerId, context.requestId)
  }

  /**
   * A post goes in steps (the post with post.deleted, each request with its event, the
   * grants), so the deletion is marked first and unmarked last: the sweep finishes any
   * deletion a crash interrupted.
   */
  async function deleteWithEverything(
    post: PostDocument,
    actorId: string | null,
    requestId?: string,
  ): Promise<void> {
    const deletion: PostDeletionDocument = {
      _id: post._id,
      ownerId: post.userID,
      title: post.title,
      actorId,
      ...(requestId !== undefined && { requestId }),
      startedAt: now(),
    }
    await deps.deletions.begin(deletion)
    await finishDeletion(deletion)
  }

  /** Every step is safe to repeat: a step already done finds nothing left to do. */
  async function finishDeletion(deletion: PostDeletionDocument): Promise<void> {
    const context = { actorId: deletion.actorId, requestId: deletion.requestId }
    if (await deps.posts.findById(deletion._id)) {
      await deps.posts.delete(deletion._id, [
        postDeletedEvent(
          { _id: deletion._id, userID: deletion.ownerId, title: deletion.title },
          context,
        ),
      ])
    }
    await deps.discardRequestsOfPost(deletion._id, {
      callerId: deletion.actorId,
      requestId: deletion.requestId,
    })
    await deps.access.deleteOfPost(deletion._id)
    deps.onAccessChanged(deletion._id)
    await deps.deletions.finished(deletion._id)
  }

  /**
   * The sweep: finishes the deletions begun before `before` (old enough that no request is
   * still working on them). Answers how many it finished.
   */
  async function finishDeletions(before: Date): Promise<number> {
    const pending = await deps.deletions.startedBefore(before)
    for (const deletion of pending) await finishDeletion(deletion)
    return pending.length
  }

  /** report.resolved with take-down: the post goes offline for good (owner still sees it). */
  async function takeDown(postId: string): Promise<void> {
    const post = await deps.posts.findById(postId)
    if (!post || post.takenDown) return
    const next = { ...post, takenDown: true, isOnline: false, updatedAt: now() }
    await deps.posts.update(
      postId,
      { $set: { takenDown: true, isOnline: false, updatedAt: next.updatedAt } },
      [postChangedEvent('post.updated', next, { actorId: null })],
    )
  }

  /**
   * user.deletion-requested / user.deletion-cancelled: the owner's posts leave everyone
   * else's sight for the grace period, and come back when the account is kept. Each post's
   * change carries post.updated (other replicas' feeds, other services' read models). The
   * two events come on two topics and may be handled at once: the owner's state is read
   * again after the pass, and a pass repeated until it held still.
   */
  async function followOwnerDeletion(ownerId: string): Promise<void> {
    for (;;) {
      const leaving = await deps.isOwnerLeaving(ownerId)
      for (const post of await deps.posts.findByOwner(ownerId)) {
        if ((post.ownerLeaving === true) === leaving) continue
        const next = { ...post, ownerLeaving: leaving, updatedAt: now() }
        await deps.posts.update(
          post._id,
          { $set: { ownerLeaving: leaving, updatedAt: next.updatedAt } },
          [postChangedEvent('post.updated', next, { actorId: null })],
        )
      }
      if ((await deps.isOwnerLeaving(ownerId)) === leaving) return
    }
  }

  /** user.deleted: the user's posts go, with their requests. */
  async function deleteAllOf(userId: string): Promise<void> {
    for (const post of await deps.posts.findByOwner(userId)) {
      await deleteWithEverything(post, null)
    }
    // And whatever the user was granted on other people's posts.
    await deps.access.deleteOfUser(userId)
  }

  /** Access through a people request (people-request.decided / .deleted). */
  async function setInvitee(
    postId: string,
    ownerId: string,
    workerId: string,
    granted: boolean,
  ): Promise<void> {
    const post = await deps.posts.findById(postId)
    // Only the post's owner can grant access to it; anything else is a stale or forged event.
    if (!post || post.userID !== ownerId) return
    if (granted) await deps.access.invite(postId, workerId)
    else await deps.access.uninvite(postId, workerId)
    deps.onAccessChanged(postId)
  }

  return {
    read,
    listOwn,
    create,
    update,
    remove,
    finishDeletions,
    takeDown,
    followOwnerDeletion,
    deleteAllOf,
    setInvitee,
  }
}

export type PostsService = ReturnType<typeof createPostsService>
