import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { ConsumerDefinition, EventHandlers } from '@marketplace/service-kit'
import { createReadYourWrites, type CatchUpResult } from '@marketplace/read-models/consistency'
import { createOrderedApply } from '@marketplace/read-models/feed'
import {
  createFollowedModel,
  topicsOf,
  type FollowedModelOptions,
  type SnapshotStore,
} from '@marketplace/read-models/snapshot'
import type { PostReaders } from '../access/post-readers'
import type { PostDocument } from '../posts/post-document'
import type { PostsRepository } from '../posts/posts-repository'
import type { FeedIndex } from './feed-index'

/** The snapshot's line of the feed sync's own: who may see a post's hidden fields. */
type AccessRecord = { a: [postId: string, users: string[]] }

const isAccessRecord = (record: unknown): record is AccessRecord =>
  typeof record === 'object' &&
  record !== null &&
  Array.isArray((record as AccessRecord).a) &&
  typeof (record as AccessRecord).a[0] === 'string' &&
  Array.isArray((record as AccessRecord).a[1])

/**
 * The snapshot object's name. It names the format too: a snapshot of the earlier format
 * (`jobs-feed`, a post per line) is simply not found, and the first instance loads the
 * database and writes one of this format.
 */
export const FEED_MODEL = 'jobs-feed-columnar'

/**
 * Keeps this process's feed index equal to the database:
 * - at start, the newest snapshot fills it, or a natural-order scan of the posts collection
 *   when there is none, and the group follows on from exactly the position that load covers
 *   (read-models' followed-model.ts, docs/scale.md);
 * - this process's own writes apply the post they wrote at once (read-your-writes);
 * - every other replica's writes arrive as events on a consumer group of this process's
 *   own (each replica must see every event), and the post is read again by `_id`, so an
 *   event only has to say which post changed, and replaying one is harmless.
 */
export function createFeedSync(deps: {
  feed: FeedIndex
  posts: PostsRepository
  readers: PostReaders
  logger: FastifyBaseLogger
  kafka: FollowedModelOptions['kafka']
  /** Where snapshots are kept; null: every load reads the database. */
  snapshots: SnapshotStore | null
  snapshotEveryMs: number
}) {
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
    readYourWrites.noteApplied(postId, post ? post.updatedAt.getTime() : 'gone')
    for (const changed of changedDuringLoads) changed.add(postId)
  })
  /**
   * A read that names posts a write just left (another instance's, maybe not yet learned
   * from Kafka) reads those from the database first (read-models' read-your-writes.ts).
   */
  const readYourWrites = createReadYourWrites({ kind: 'post', refresh: (id) => refresh(id) })
  /**
   * The same for who may see a post's hidden fields: a decision on a request changes no post,
   * only its grants, and the requester reading the feed right after must see what they were
   * just allowed to see. Grants have no version of their own: a position names when they
   * changed (post-write-position.ts), and a read of them that started later holds the change.
   */
  const grantsReadYourWrites = createReadYourWrites({
    kind: 'grants',
    refresh: (id) => refreshAccess(id),
  })
  /** A change this process made or learned of, applied at once. */
  const apply = ordered.apply

  /**
   * Replaces the content with what `read` answers; this process's own writes during the read
   * (applied at once, read-your-writes) are read again afterwards, as the read may hold an
   * older copy of them.
   */
  async function replaceWith(
    read: () => Promise<{ install: () => number; access: Map<string, string[]> }>,
  ): Promise<number> {
    const changedDuringLoad = new Set<string>()
    changedDuringLoads.add(changedDuringLoad)
    try {
      const { install, access } = await read()
      // Content and grants replaced in one synchronous step.
      const count = install()
      accessByPost = access
      for (const postId of changedDuringLoad) await refresh(postId)
      return count
    } finally {
      changedDuringLoads.delete(changedDuringLoad)
    }
  }

  const loadFromDatabase = () =>
    replaceWith(async () => {
      const [posts, access] = await Promise.all([deps.posts.findAll(), deps.readers.all()])
      return {
        install: () => {
          deps.feed.load(posts)
          return posts.length
        },
        access,
      }
    })

  /**
   * The feed's columns as the snapshot holds them (read-models' ColumnarFeed reads its own
   * records), then the grants. Built off to the side: the feed serves and follows this
   * process's writes meanwhile, and takes the loaded content in one step.
   */
  const loadFromSnapshot = (records: AsyncIterable<unknown>) =>
    replaceWith(async () => {
      const loader = deps.feed.snapshotLoader()
      const access = new Map<string, string[]>()
      for await (const record of records) {
        if (loader.accept(record)) continue
        if (isAccessRecord(record)) access.set(record.a[0], record.a[1])
      }
      return { install: loader.finish, access }
    })

  /**
   * The feed's columns, then the grants; both copied at once (the feed changes in place
   * afterwards, and the positions taken with them cover this copy).
   */
  function snapshotRecords(): { count: number; records: Iterable<unknown> } {
    const { count, records } = deps.feed.snapshotRecords()
    const access = [...accessByPost]
    return {
      count,
      records: (function* () {
        yield* records
        for (const [postId, users] of access) yield { a: [postId, users] } satisfies AccessRecord
      })(),
    }
  }

  async function refreshAccess(postId: string): Promise<void> {
    const startedAt = Date.now()
    const users = (await deps.readers.usersOf([postId])).get(postId)
    if (users) accessByPost.set(postId, users)
    else accessByPost.delete(postId)
    grantsReadYourWrites.noteApplied(postId, startedAt)
  }

  async function refresh(postId: string): Promise<void> {
    // The post and its grants are read side by side: a read that waits on this refresh (a
    // caller's read after their write, docs/consistency.md) pays the slower of the two reads,
    // not their sum.
    await Promise.all([
      ordered.refresh(postId, () => deps.posts.findById(postId)),
      refreshAccess(postId),
    ])
  }

  // Every event below carries the post's id; the post is read again rather than patched.
  // Not before the load is in place: the load would replace what it applied.
  const byPostId = async (event: { data: { postId: string } }) => {
    await followed.whenLoaded()
    await refresh(event.data.postId)
  }
  const handlers: EventHandlers = {
    'post.created': byPostId,
    'post.updated': byPostId,
    'post.deleted': byPostId,
    'job-request.decided': byPostId,
    'job-request.deleted': byPostId,
    'people-request.decided': byPostId,
    'people-request.deleted': byPostId,
  }

  const followed = createFollowedModel({
    model: FEED_MODEL,
    kafka: deps.kafka,
    topics: topicsOf(handlers),
    store: deps.snapshots,
    loadFromDatabase,
    loadFromSnapshot,
    snapshotRecords,
    snapshotEveryMs: deps.snapshotEveryMs,
    logger: deps.logger,
  })

  const consumer: ConsumerDefinition = {
    // One group per process: a shared group would give each event to one replica only.
    groupId: `jobs-feed.${hostname()}.${process.pid}.${randomUUID().slice(0, 8)}`,
    useLedger: false,
    fromBeginning: false,
    deleteOnClose: true,
    startAt: followed.startAt,
    onHandled: followed.onHandled,
    handlers,
  }

  return {
    load: followed.load,
    /** The database read again (tests: a load overlapping another). */
    reloadFromDatabase: loadFromDatabase,
    writeSnapshot: followed.writeSnapshot,
    loadedFrom: followed.loadedFrom,
    apply,
    refresh,
    refreshAccess,
    /** Before a read: the posts and grants its X-Read-After header names, as they are now. */
    async catchUp(header: string | string[] | undefined): Promise<CatchUpResult> {
      const [posts, grants] = await Promise.all([
        readYourWrites.catchUp(header),
        grantsReadYourWrites.catchUp(header),
      ])
      return { asked: posts.asked + grants.asked, refreshed: posts.refreshed + grants.refreshed }
    },
    accessOf: (postId: string): readonly string[] => accessByPost.get(postId) ?? [],
    consumer,
    isLoaded: followed.isReady,
    close: followed.close,
  }
}

export type FeedSync = ReturnType<typeof createFeedSync>
