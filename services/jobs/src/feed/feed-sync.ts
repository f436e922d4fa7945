import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { ConsumerDefinition } from '@marketplace/service-kit'
import { createOrderedApply } from '@marketplace/read-models/feed'
import type { PostReaders } from '../access/post-readers'
import type { PostDocument } from '../posts/post-document'
import type { PostsRepository } from '../posts/posts-repository'
import type { FeedIndex } from './feed-index'

/**
 * Keeps this process's feed index equal to the database:
 * - at start, a natural-order scan of the posts collection fills it;
 * - this process's own writes apply the post they wrote at once (read-your-writes);
 * - every other replica's writes arrive as events on a consumer group of this process's
 *   own (each replica must see every event), and the post is read again by `_id`, so an
 *   event only has to say which post changed, and replaying one is harmless.
 * The group starts at the topics' ends, so a second load runs once the group has joined:
 * a change made between the first load and the join is not missed.
 */
export function createFeedSync(deps: {
  feed: FeedIndex
  posts: PostsRepository
  readers: PostReaders
  logger: FastifyBaseLogger
}) {
  let loaded = false
  /** Who may see each post's hidden fields (post-readers.ts), for per-viewer feed pages. */
  let accessByPost = new Map<string, string[]>()
  /**
   * Posts changed while a load was scanning, one set per load under way: the scan may hold an
   * older copy of them. Loads may overlap (the start-up's second load once the group has
   * joined, a test's), so each keeps its own set.
   */
  const changedDuringLoads = new Set<Set<string>>()

  // An older re-read never undoes a newer change (read-models ordered-apply.ts).
  const ordered = createOrderedApply<PostDocument>((postId, post) => {
    deps.feed.apply(postId, post)
    for (const changed of changedDuringLoads) changed.add(postId)
  })
  /** A change this process made or learned of, applied at once. */
  const apply = ordered.apply

  async function load(): Promise<void> {
    const started = Date.now()
    let posts: PostDocument[] = []
    const changedDuringLoad = new Set<string>()
    changedDuringLoads.add(changedDuringLoad)
    try {
      posts = await deps.posts.findAll()
      const access = await deps.readers.all()
      deps.feed.load(posts)
      accessByPost = access
      loaded = true
      // Read again what changed during the scan, now that the snapshot is in place.
      for (const postId of changedDuringLoad) await refresh(postId)
    } finally {
      changedDuringLoads.delete(changedDuringLoad)
    }
    deps.logger.info(
      { scanned: posts.length, live: deps.feed.size, ms: Date.now() - started },
      'feed index loaded',
    )
  }

  async function refreshAccess(postId: string): Promise<void> {
    const users = (await deps.readers.usersOf([postId])).get(postId)
    if (users) accessByPost.set(postId, users)
    else accessByPost.delete(postId)
  }

  async function refresh(postId: string): Promise<void> {
    await ordered.refresh(postId, () => deps.posts.findById(postId))
    await refreshAccess(postId)
  }

  // Every event below carries the post's id; the post is read again rather than patched.
  const byPostId = async (event: { data: { postId: string } }) => refresh(event.data.postId)

  const consumer: ConsumerDefinition = {
    // One group per process: a shared group would give each event to one replica only.
    groupId: `jobs-feed.${hostname()}.${process.pid}.${randomUUID().slice(0, 8)}`,
    useLedger: false,
    fromBeginning: false,
    handlers: {
      'post.created': byPostId,
      'post.updated': byPostId,
      'post.deleted': byPostId,
      'job-request.decided': byPostId,
      'job-request.deleted': byPostId,
      'people-request.decided': byPostId,
      'people-request.deleted': byPostId,
    },
  }

  return {
    load,
    apply,
    refresh,
    refreshAccess,
    accessOf: (postId: string): readonly string[] => accessByPost.get(postId) ?? [],
    consumer,
    isLoaded: () => loaded,
  }
}

export type FeedSync = ReturnType<typeof createFeedSync>
