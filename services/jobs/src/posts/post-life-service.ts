import type { JobPost } from '@marketplace/contracts/api'
import { RELIST_INTERVAL_MS } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { BadRequestError, NotFoundError, TooManyRequestsError } from '@marketplace/service-kit'
import type { PostReaders } from '../access/post-readers'
import { isLive, isShownToOthers, type PostDocument } from './post-document'
import { postChangedEvent, postClosedEvent, postExpiringEvent } from './post-events'
import { expiryInstant } from './post-input'
import { RELISTABLE_STATES, nextLifeNoticeAt, postState, relistExpirationDate } from './post-life'
import { toPostView } from './post-view'
import type { PostsRepository } from './posts-repository'
import type { Context } from './posts-service'

/** Posts read per pass of the sweep; a pass goes on while full pages come back. */
const SWEEP_BATCH = 100
/** Passes per sweep at most: what is left waits for the next sweep. */
const SWEEP_MAX_PASSES = 50

export interface SweepResult {
  warned: number
  closed: number
}

/**
 * The life of a post after it is published (docs/posts.md, "The life of a post"): the owner
 * marks it filled or relists it, and a sweep warns the owner before it expires and tells its
 * pending requesters once it has. Each notice is claimed on the post document itself: one
 * compare-and-set on `lifeNoticeAt` stores the notice's event in the post's outbox, so of two
 * instances sweeping at once exactly one sends it, and a crash sends it whole or not at all.
 */
export function createPostLifeService(deps: {
  posts: PostsRepository
  readers: PostReaders
  /** The requesters whose request on the post is still pending (requests module). */
  pendingRequestersOf(postId: string): Promise<string[]>
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())
  const notFound = () => new NotFoundError('Post not found', 'POST_NOT_FOUND')

  /** The caller's own post, or 404: someone else's post is answered as if it did not exist. */
  async function ownPost(postId: string, callerId: string): Promise<PostDocument> {
    if (!/^[0-9a-f]{24}$/.test(postId)) throw notFound()
    const post = await deps.posts.findById(postId)
    if (!post || post.userID !== callerId) throw notFound()
    return post
  }

  async function ownerView(post: PostDocument): Promise<JobPost> {
    const access = await deps.readers.usersOf([post._id])
    return toPostView(post, post.userID, access.get(post._id))
  }

  /**
   * Mark filled: the post takes no more requests and leaves the feed and search; its requests
   * and conversations stay. Its pending requesters are told (post.closed). Marking a filled
   * post again changes nothing and tells no one again.
   */
  async function fill(postId: string, context: Context): Promise<JobPost> {
    const post = await ownPost(postId, context.callerId)
    if (post.filledAt) return ownerView(post)
    if (post.takenDown) throw new BadRequestError(Messages.post.fillTakenDown, 'POST_TAKEN_DOWN')
    const pending = await deps.pendingRequestersOf(post._id)
    const at = now()
    const changes = { filledAt: at, lifeNoticeAt: null, updatedAt: at }
    const next: PostDocument = { ...post, ...changes }
    const actor = { actorId: context.callerId, requestId: context.requestId }
    // Guarded by updatedAt: an edit or another fill that landed since the read is judged
    // again on the fresh post (a second fill then finds it filled and tells no one).
    const saved = await deps.posts.update(
      post._id,
      { $set: changes },
      [
        postChangedEvent('post.updated', next, actor),
        postClosedEvent(next, 'filled', pending, actor),
      ],
      { updatedAt: post.updatedAt },
    )
    if (!saved) return fill(postId, context)
    return ownerView(saved)
  }

  /**
   * Relist: a filled or expired post, or one about to expire, is published again as new (the
   * top of the feed: `createdAt` is the relist's instant) and lives RELIST_DAYS more. At most
   * once in RELIST_INTERVAL_MS per post: sooner is a 429 saying when.
   */
  async function relist(postId: string, context: Context): Promise<JobPost> {
    const post = await ownPost(postId, context.callerId)
    if (post.takenDown) throw new BadRequestError(Messages.post.relistTakenDown, 'POST_TAKEN_DOWN')
    const at = now()
    if (post.relistedAt) {
      const allowedAt = post.relistedAt.getTime() + RELIST_INTERVAL_MS
      if (at.getTime() < allowedAt) {
        const when = new Date(allowedAt).toISOString().slice(0, 16).replace('T', ' ')
        throw new TooManyRequestsError(
          Messages.post.relistTooSoon(`${when} UTC`),
          Math.ceil((allowedAt - at.getTime()) / 1000),
        )
      }
    }
    if (!RELISTABLE_STATES.includes(postState(post, at)))
      throw new BadRequestError(Messages.post.relistOnlyWhenClosed, 'POST_NOT_RELISTABLE')
    const expirationDate = relistExpirationDate(at)
    const expiresAt = expiryInstant(expirationDate)
    const changes = {
      filledAt: null,
      isOnline: true,
      expirationDate,
      expiresAt,
      createdAt: at,
      relistedAt: at,
      updatedAt: at,
    }
    const next: PostDocument = { ...post, ...changes }
    const lifeNoticeAt = nextLifeNoticeAt(next)
    const saved = await deps.posts.update(
      post._id,
      { $set: { ...changes, lifeNoticeAt } },
      [
        postChangedEvent('post.updated', next, {
          actorId: context.callerId,
          requestId: context.requestId,
        }),
      ],
      // Of two relists at once one lands; the other is judged again, and refused as too soon.
      { updatedAt: post.updatedAt },
    )
    if (!saved) return relist(postId, context)
    return ownerView(saved)
  }

  /**
   * One due post: its warning (before it expires) or its expiry's notice (after), claimed by
   * moving `lifeNoticeAt` on from the value read. Answers what was sent, if anything.
   */
  async function handleDue(post: PostDocument, at: Date): Promise<keyof SweepResult | null> {
    const claim = { lifeNoticeAt: post.lifeNoticeAt }
    const expiresAt = post.expiresAt
    if (!expiresAt || post.filledAt) {
      await deps.posts.update(post._id, { $set: { lifeNoticeAt: null } }, [], claim)
      return null
    }
    if (at < expiresAt) {
      // Only a live post is worth a warning: an offline one is the owner's choice already.
      const warn = isLive(post, at) && post.expirationDate !== null
      const saved = await deps.posts.update(
        post._id,
        { $set: { lifeNoticeAt: expiresAt, expiryWarnedFor: expiresAt } },
        warn ? [postExpiringEvent({ ...post, expirationDate: post.expirationDate! })] : [],
        claim,
      )
      return saved && warn ? 'warned' : null
    }
    // Expired: the requesters still waiting are told, unless the post is out of their sight.
    const tell = isShownToOthers(post)
    const pending = tell ? await deps.pendingRequestersOf(post._id) : []
    const saved = await deps.posts.update(
      post._id,
      { $set: { lifeNoticeAt: null, expiryClosedFor: expiresAt } },
      tell ? [postClosedEvent(post, 'expired', pending, { actorId: null })] : [],
      claim,
    )
    return saved && tell ? 'closed' : null
  }

  /** Sends every life notice due at `at` (the sweep; tests pass their own instant). */
  async function sweep(at: Date = now()): Promise<SweepResult> {
    const result: SweepResult = { warned: 0, closed: 0 }
    for (let pass = 0; pass < SWEEP_MAX_PASSES; pass += 1) {
      const due = await deps.posts.dueForLifeNotice(at, SWEEP_BATCH)
      for (const post of due) {
        const sent = await handleDue(post, at)
        if (sent) result[sent] += 1
      }
      if (due.length < SWEEP_BATCH) break
    }
    return result
  }

  return { fill, relist, sweep }
}

export type PostLifeService = ReturnType<typeof createPostLifeService>
