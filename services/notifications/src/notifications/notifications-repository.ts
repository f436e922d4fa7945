import { MongoServerError, type Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  insertWithEvents,
  type IndexDefinition,
  type OutboxTarget,
} from '@marketplace/service-kit'
import { RECIPIENTS_COLLECTION, type RecipientDocument } from '../recipients/recipients-repository'
import {
  NOTIFICATION_BUCKETS_COLLECTION,
  bucketDocumentId,
  bucketOfSeq,
  countKey,
  itemKey,
  liveBuckets,
  newestFirst,
  slicesForPage,
  totalOf,
  type BucketCounts,
  type BucketedNotification,
  type NotificationBucketDocument,
} from './notification-buckets'
import { NOTIFICATIONS_COLLECTION, type NotificationDocument } from './notification-document'

/** Indexes (docs/notifications.md lists the query each serves). */
export const notificationIndexes: IndexDefinition[] = [
  // The purge of a user, and the one-time fill of the buckets of a user whose notifications
  // were stored before them: userId = ?, oldest first.
  {
    collection: NOTIFICATIONS_COLLECTION,
    keys: { userId: 1, createdAt: -1 },
    options: { name: 'user_recent' },
  },
  {
    collection: NOTIFICATIONS_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
  // The purge of a user's buckets: userId = ?.
  {
    collection: NOTIFICATION_BUCKETS_COLLECTION,
    keys: { userId: 1 },
    options: { name: 'by_user' },
  },
]

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

/** What a page read found: the notices, the total, and the unread count the head keeps. */
export interface NotificationsPageRead {
  items: BucketedNotification[]
  total: number
  unreadCount: number
}

export function createNotificationsRepository(
  db: Db,
  hooks: { notifyOutbox(target: OutboxTarget): void },
) {
  const notifications = db.collection<NotificationDocument>(NOTIFICATIONS_COLLECTION)
  const buckets = db.collection<NotificationBucketDocument>(NOTIFICATION_BUCKETS_COLLECTION)
  // The head of a user's buckets is their recipient document: it already holds the unread
  // count, and storing a notification already writes it (recipients-repository.ts).
  const heads = db.collection<RecipientDocument>(RECIPIENTS_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }

  const headOf = (userId: string) =>
    heads.findOne(
      { _id: userId },
      {
        projection: {
          unreadCount: 1,
          notificationSeq: 1,
          notificationBuckets: 1,
          notificationsBucketed: 1,
        },
      },
    )

  const readBucket = (userId: string, bucket: number) =>
    buckets.findOne({ _id: bucketDocumentId(userId, bucket) })

  /** The next number in the user's history (the head is made if missing). */
  async function nextSeq(userId: string): Promise<number> {
    const update = { $inc: { notificationSeq: 1 }, $setOnInsert: { updatedAt: new Date() } }
    const after = { returnDocument: 'after', upsert: true } as const
    try {
      return (await heads.findOneAndUpdate({ _id: userId }, update, after))!.notificationSeq!
    } catch (error) {
      if (!isDuplicateKey(error)) throw error
      return (await heads.findOneAndUpdate({ _id: userId }, update, after))!.notificationSeq!
    }
  }

  /**
   * Puts the notice in its bucket unless it is there already (a redelivered event, a fill
   * running twice), and only then counts it on the head. The count is set to what the bucket
   * holds after the listing, never below what the head has ($max), rather than raised by one:
   * a page read that counted the bucket meanwhile (settleCounts) and this write then agree,
   * where an increment would count the notice twice. Without transactions, a crash between
   * the two writes leaves the notice uncounted until the next look at its bucket or its
   * redelivery counts it.
   */
  async function list(notification: NotificationDocument & { seq: number }): Promise<void> {
    const { userId, seq } = notification
    const bucket = bucketOfSeq(seq)
    const path = `items.${itemKey(seq)}`
    const item: BucketedNotification = {
      _id: notification._id,
      seq,
      kind: notification.kind,
      message: notification.message,
      link: notification.link,
      isRead: notification.isRead,
      createdAt: notification.createdAt,
      ...(notification.actorId ? { actorId: notification.actorId } : {}),
    }
    let listedIn: NotificationBucketDocument | null = null
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      try {
        listedIn = await buckets.findOneAndUpdate(
          { _id: bucketDocumentId(userId, bucket), [path]: { $exists: false } },
          { $set: { [path]: item }, $setOnInsert: { userId, bucket } },
          { upsert: true, returnDocument: 'after' },
        )
        break
      } catch (error) {
        // The bucket exists with the notice in it (the filter then matches nothing, and the
        // upsert's insert meets the `_id`), or two first notices of a bucket raced: once more.
        if (!isDuplicateKey(error)) throw error
      }
    }
    if (listedIn) {
      await heads.updateOne(
        { _id: userId },
        {
          $max: {
            [`notificationBuckets.${countKey(bucket)}`]: Object.keys(listedIn.items ?? {}).length,
          },
        },
      )
      return
    }
    // Listed already: a redelivery, perhaps after a crash between listing and counting. Its
    // bucket's count is set from what the bucket holds now; otherwise a bucket the user's
    // first page never reads (an older one) would stay one short, and the total with it.
    const head = await heads.findOne({ _id: userId }, { projection: { notificationBuckets: 1 } })
    await settleCounts(
      userId,
      head?.notificationBuckets,
      new Map([[bucket, await readBucket(userId, bucket)]]),
    )
  }

  /**
   * The one-time fill for a user whose notifications were stored before the buckets: each
   * takes the next number, oldest first, and is listed; then the head is marked. Two fills at
   * once (a page read and a new notification) give each notice one number: the number is set
   * only where none is.
   */
  async function fillBuckets(userId: string): Promise<void> {
    // Oldest first on the `user_recent` index (read backwards); notices of the same instant
    // take their numbers in either order.
    const stored = await notifications
      .find({ userId }, { ...withoutOutbox, sort: { createdAt: 1 } })
      .toArray()
    for (const notification of stored) {
      let seq = notification.seq
      if (seq === undefined) {
        const candidate = await nextSeq(userId)
        const taken = await notifications.updateOne(
          { _id: notification._id, seq: { $exists: false } },
          { $set: { seq: candidate } },
        )
        seq =
          taken.modifiedCount === 1
            ? candidate
            : (await notifications.findOne({ _id: notification._id }, withoutOutbox))?.seq
      }
      if (seq !== undefined) await list({ ...notification, seq })
    }
    const unread = stored.filter((notification) => !notification.isRead).length
    await heads.updateOne(
      { _id: userId },
      {
        $set: { notificationsBucketed: true, unreadCount: unread },
        $setOnInsert: { updatedAt: new Date() },
      },
      { upsert: true },
    )
  }

  /** The head, after the one-time fill when the user's notifications predate the buckets. */
  async function bucketedHead(userId: string) {
    const head = await headOf(userId)
    if (head?.notificationsBucketed) return head
    await fillBuckets(userId)
    return headOf(userId)
  }

  /**
   * Stores the exact count unless the stored one changed since it was read as `seen` (a
   * compare-and-set): a notification counted in between is not overwritten.
   */
  async function settleUnread(userId: string, seen: number | undefined, exact: number) {
    if (seen !== exact) {
      await heads.updateOne(
        { _id: userId, unreadCount: seen === undefined ? { $exists: false } : seen },
        { $set: { unreadCount: exact } },
      )
    }
    return exact
  }

  /**
   * Sets the head's count of each bucket just read to what the bucket holds, where they
   * differ, each as a compare-and-set on the count the head showed: a crash between listing a
   * notice and counting it leaves a count one short, which the user's next look sets right.
   * A notice listed while this read ran but not yet counted is counted here, and its own
   * write then sets the same count ($max in list), not one more. Returns the counts as set.
   */
  async function settleCounts(
    userId: string,
    counts: BucketCounts | undefined,
    read: ReadonlyMap<number, NotificationBucketDocument | null>,
  ): Promise<BucketCounts> {
    const settled: BucketCounts = { ...counts }
    for (const [bucket, found] of read) {
      const path = `notificationBuckets.${countKey(bucket)}`
      const seen = counts?.[countKey(bucket)]
      const holds = Object.keys(found?.items ?? {}).length
      settled[countKey(bucket)] = holds
      if ((seen ?? 0) === holds) continue
      await heads.updateOne(
        { _id: userId, [path]: seen === undefined ? { $exists: false } : seen },
        { $set: { [path]: holds } },
      )
    }
    return settled
  }

  /**
   * Calls `change` with each bucket that holds notices, one read by `_id` each: the two
   * actions over all of a user's notices ("mark all read", "clear read") are the only ones
   * whose cost grows with the history, a write the user asks for, never a read.
   */
  async function eachBucket(
    userId: string,
    head: Pick<RecipientDocument, 'notificationBuckets'> | null,
    change: (bucket: NotificationBucketDocument) => Promise<void>,
  ): Promise<void> {
    for (const { bucket } of liveBuckets(head?.notificationBuckets)) {
      const found = await readBucket(userId, bucket)
      if (found) await change(found)
    }
  }

  return {
    /**
     * Stores the notification (numbered `seq`) with its event and lists it in its bucket;
     * false when it was already stored. A redelivery lists the stored one, in case a crash
     * came between the insert and the listing.
     */
    async insert(
      notification: NotificationDocument & { seq: number },
      events: DomainEvent[],
    ): Promise<boolean> {
      try {
        await notifications.insertOne(insertWithEvents(notification, events))
      } catch (error) {
        if (!isDuplicateKey(error)) throw error
        const stored = await notifications.findOne({ _id: notification._id }, withoutOutbox)
        if (stored?.seq !== undefined) await list({ ...stored, seq: stored.seq })
        return false
      }
      // Listed and counted before its event is hurried out: the live push makes the browser
      // read the page at once, and that page should already hold the notice.
      await list(notification)
      hooks.notifyOutbox({
        collection: NOTIFICATIONS_COLLECTION,
        id: notification._id,
        outbox: events,
      })
      return true
    },

    /**
     * A fresh number for a user whose older notifications are not in buckets yet: fills
     * their buckets first, so the new one comes after them.
     */
    async seqAfterFill(userId: string): Promise<number> {
      await fillBuckets(userId)
      return nextSeq(userId)
    },

    /**
     * Marks the notification pushed, unless it already was (or is gone): true for the one
     * caller that may push it. A redelivered notification.created finds it claimed.
     */
    async claimPush(id: string): Promise<boolean> {
      const result = await notifications.updateOne(
        { _id: id, pushedAt: { $exists: false } },
        { $set: { pushedAt: new Date() } },
      )
      return result.modifiedCount === 1
    },

    /**
     * One page, newest first: the head, then the one or two buckets that hold the page. The
     * unread count is the head's; where the page's buckets are all the user has, it is also
     * counted from them and the head set right when a crash left it off.
     */
    async page(userId: string, page: number, limit: number): Promise<NotificationsPageRead> {
      const head = await bucketedHead(userId)
      const counts = head?.notificationBuckets
      const slices = slicesForPage(counts, (page - 1) * limit, limit)
      // The first page also looks at the newest bucket when the head counts nothing there:
      // a crash between listing a user's first notice of a bucket and counting it would
      // otherwise hide that bucket for good.
      const newest = head?.notificationSeq ? bucketOfSeq(head.notificationSeq) : null
      const wanted = slices.map(({ bucket }) => bucket)
      if (page === 1 && newest !== null && !wanted.includes(newest)) wanted.push(newest)
      const read = new Map(
        await Promise.all(
          wanted.map(async (bucket) => [bucket, await readBucket(userId, bucket)] as const),
        ),
      )
      const items = slices.flatMap(({ bucket, skip, take }) =>
        newestFirst(read.get(bucket) ?? null).slice(skip, skip + take),
      )
      // The total as the buckets just read hold it: a count the head had off is reported right
      // at once, not only from the next look on.
      const settled = await settleCounts(userId, counts, read)
      let unreadCount = head?.unreadCount ?? 0
      if (slices.length === liveBuckets(counts).length) {
        const exact = [...read.values()].flatMap(newestFirst).filter((item) => !item.isRead).length
        unreadCount = await settleUnread(userId, head?.unreadCount, exact)
      }
      return { items, total: totalOf(settled), unreadCount: Math.max(0, unreadCount) }
    },

    /**
     * The unread count the head keeps: one read. When the user's notices fit in two buckets
     * (a hundred), they are read and counted, and the head set right when a crash left it off.
     */
    async unreadCount(userId: string): Promise<number> {
      const head = await bucketedHead(userId)
      const live = liveBuckets(head?.notificationBuckets)
      if (live.length > 2) return Math.max(0, head?.unreadCount ?? 0)
      const read = await Promise.all(live.map(({ bucket }) => readBucket(userId, bucket)))
      const exact = read.flatMap(newestFirst).filter((item) => !item.isRead).length
      return settleUnread(userId, head?.unreadCount, exact)
    },

    /**
     * Marks one of the user's notifications read; false when the user has no such one. Its
     * number comes from the notification (one read by `_id`), the change is in its bucket,
     * and the head's count goes down only when this call made it read.
     */
    async markRead(id: string, userId: string): Promise<boolean> {
      let found = await notifications.findOne(
        { _id: id, userId },
        { projection: { seq: 1, isRead: 1 } },
      )
      if (!found) return false
      if (found.seq === undefined) {
        await fillBuckets(userId)
        found = await notifications.findOne({ _id: id, userId }, { projection: { seq: 1 } })
        if (found?.seq === undefined) return found !== null
      }
      const path = `items.${itemKey(found.seq)}.isRead`
      const { modifiedCount } = await buckets.updateOne(
        { _id: bucketDocumentId(userId, bucketOfSeq(found.seq)), [path]: false },
        { $set: { [path]: true } },
      )
      if (modifiedCount === 1) await heads.updateOne({ _id: userId }, { $inc: { unreadCount: -1 } })
      return true
    },

    /**
     * Marks every notice read, a bucket at a time (each change conditional on what was read,
     * so a notice read meanwhile is not counted twice); the head's count becomes 0 unless a
     * notification came meanwhile.
     */
    async markAllRead(userId: string): Promise<void> {
      const head = await bucketedHead(userId)
      const seen = head?.unreadCount
      let flipped = 0
      await eachBucket(userId, head, async (bucket) => {
        const unread = newestFirst(bucket).filter((item) => !item.isRead)
        if (unread.length === 0) return
        const paths = unread.map((item) => `items.${itemKey(item.seq)}.isRead`)
        const { modifiedCount } = await buckets.updateOne(
          { _id: bucket._id, ...Object.fromEntries(paths.map((path) => [path, false])) },
          { $set: Object.fromEntries(paths.map((path) => [path, true])) },
        )
        if (modifiedCount === 1) flipped += unread.length
      })
      const zeroed = await heads.updateOne(
        { _id: userId, unreadCount: seen === undefined ? { $exists: false } : seen },
        { $set: { unreadCount: 0 } },
      )
      if (zeroed.matchedCount === 0 && flipped > 0) {
        await heads.updateOne({ _id: userId }, { $inc: { unreadCount: -flipped } })
      }
    },

    /**
     * Removes the read notices: from each bucket (conditional on their still being read),
     * its count on the head, then the notifications themselves (one delete per bucket).
     */
    async clearRead(userId: string): Promise<number> {
      let deleted = 0
      await eachBucket(userId, await bucketedHead(userId), async (bucket) => {
        const read = newestFirst(bucket).filter((item) => item.isRead)
        if (read.length === 0) return
        const paths = read.map((item) => `items.${itemKey(item.seq)}`)
        const { modifiedCount } = await buckets.updateOne(
          { _id: bucket._id, ...Object.fromEntries(paths.map((path) => [`${path}.isRead`, true])) },
          { $unset: Object.fromEntries(paths.map((path) => [path, ''])) },
        )
        if (modifiedCount !== 1) return
        await heads.updateOne(
          { _id: userId },
          { $inc: { [`notificationBuckets.${countKey(bucket.bucket)}`]: -read.length } },
        )
        const ids = read.map((item) => item._id)
        deleted += (await notifications.deleteMany({ _id: { $in: ids }, userId })).deletedCount
      })
      return deleted
    },

    deleteOfUser: async (userId: string) => {
      await notifications.deleteMany({ userId })
      await buckets.deleteMany({ userId })
    },
  }
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>
