import type { NotificationKind } from './notification-document'

/**
 * A user's notifications, as the dropdown reads them, in buckets of `NOTIFICATION_BUCKET_SIZE`
 * by their number in the user's history: bucket 0 holds notices 1 to 50, bucket 1 notices 51
 * to 100, and so on. A page is then one read of the user's head document (the recipient's,
 * which keeps how many notices each bucket still holds, and the unread count) and one or two
 * bucket reads by `_id`, however long the history: cheap on MongoDB and on the local
 * FerretDB, which uses no index but `_id`. A query over the notifications by user would be
 * as cheap on MongoDB but scans every user's notifications on FerretDB.
 */
export const NOTIFICATION_BUCKETS_COLLECTION = 'notification_buckets'

/** The largest page the API serves: a full page then spans at most two buckets. */
export const NOTIFICATION_BUCKET_SIZE = 50

/** A notice as its bucket keeps it: what the dropdown shows, and whether it was read. */
export interface BucketedNotification {
  _id: string
  seq: number
  kind: NotificationKind
  message: string
  link: string
  isRead: boolean
  createdAt: Date
  /** The user who caused it (absent on notices stored before it was kept). */
  actorId?: string
}

export interface NotificationBucketDocument {
  /** `<userId>:b<bucket>` */
  _id: string
  userId: string
  bucket: number
  /**
   * Keyed `n<seq>`: an object rather than an array, so a notice is set, marked read or
   * removed by its path, with no positional operator (FerretDB v1 has none), and notices
   * stored at once land in any order.
   */
  items: Record<string, BucketedNotification>
}

export const bucketOfSeq = (seq: number) => Math.floor((seq - 1) / NOTIFICATION_BUCKET_SIZE)
export const bucketDocumentId = (userId: string, bucket: number) => `${userId}:b${bucket}`
export const itemKey = (seq: number) => `n${seq}`
/** The head's key for a bucket's count (an object key, not an array index: see above). */
export const countKey = (bucket: number) => `b${bucket}`

/** How many notices each bucket holds, as the head keeps it: `{ b0: 50, b1: 12 }`. */
export type BucketCounts = Record<string, number>

/** The buckets that still hold notices, newest first, with their counts. */
export function liveBuckets(
  counts: BucketCounts | undefined,
): Array<{ bucket: number; count: number }> {
  return Object.entries(counts ?? {})
    .map(([key, count]) => ({ bucket: Number(key.slice(1)), count }))
    .filter(({ bucket, count }) => Number.isInteger(bucket) && count > 0)
    .sort((a, b) => b.bucket - a.bucket)
}

export const totalOf = (counts: BucketCounts | undefined) =>
  liveBuckets(counts).reduce((sum, { count }) => sum + count, 0)

/** One bucket's share of a page: skip its `skip` newest notices, then take `take`. */
export interface BucketSlice {
  bucket: number
  skip: number
  take: number
}

/**
 * Which buckets hold the notices at places `skip` to `skip + limit - 1`, counted from the
 * newest. Empty buckets (every notice cleared) are passed without a read, so a page reads at
 * most `limit` buckets even where clearing left a few notices in each, and two where they are
 * full.
 */
export function slicesForPage(counts: BucketCounts | undefined, skip: number, limit: number) {
  const slices: BucketSlice[] = []
  let toSkip = skip
  let toTake = limit
  for (const { bucket, count } of liveBuckets(counts)) {
    if (toTake === 0) break
    if (toSkip >= count) {
      toSkip -= count
      continue
    }
    const take = Math.min(count - toSkip, toTake)
    slices.push({ bucket, skip: toSkip, take })
    toSkip = 0
    toTake -= take
  }
  return slices
}

/** A bucket's notices, newest first. */
export const newestFirst = (bucket: NotificationBucketDocument | null): BucketedNotification[] =>
  Object.values(bucket?.items ?? {}).sort((a, b) => b.seq - a.seq)
