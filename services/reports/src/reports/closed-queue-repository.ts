import { MongoServerError, ObjectId, type Db } from 'mongodb'
import type { ReportDocument } from './report-document'
import { REPORT_QUEUE_COLLECTION } from './report-queue-repository'

/**
 * The closed moderation queue as a read model addressed by `_id` (issue 19 §2): a page of
 * closed reports most recent first (by filing time, then id, as the query it replaces:
 * `find({status: 'closed'}).sort({createdAt: -1, _id: -1}).skip().limit()` and its count,
 * which read every closed report on the local server and walk the `queue` index on MongoDB).
 * A page is one `_id` read of the head, one or two of buckets and one per report on the
 * page, whatever the number of closed reports.
 *
 * Reports close in any order (a take-down closes old reports of a target, a deleted post
 * its own), so buckets are not filled in closing order, as the open queue's are in joining
 * order: each bucket holds a range of the queue order (filing time, then id), the ranges
 * tile it, and a full bucket splits in two, as a B-tree's leaves do. Pages never read
 * overlapping buckets, however late a report closes.
 *
 * The documents, in the open queue's collection (`report_queue`), ids prefixed `closed:`:
 * - buckets `closed:<key>`: `entries.r<reportId>` with the filing time and when the entry
 *   was listed; at most `bucketSize`; a `version` every write of the bucket compares and
 *   sets (FerretDB v1 applies an update as read, change, write back: a compare-and-set is
 *   what keeps two writers of one bucket from losing one's entry).
 * - the head `closed:head`: the buckets in queue order, each with the lowest key it holds
 *   (`order`, changed by compare-and-set on the head's `version`), and each bucket's count
 *   (`counts.<key>`, `$inc` after each bucket write; one a crash left off is set right by
 *   the first page that reads its bucket a minute after its last write). The total and the
 *   buckets a page covers are worked out from it.
 *
 * A split: the full bucket is frozen (`split` set by compare-and-set: nothing is added to
 * or removed from it after), its two halves are inserted under new keys, the head swaps them
 * in, the frozen bucket is deleted. Whoever meets a frozen bucket finishes its split
 * (idempotent: the halves are worked out from the frozen bucket), so a crash halfway leaves
 * nothing stuck. Entries are keyed by report, and a report's bucket follows from its key, so
 * listing a report again (a replayed event, a retry) finds it where it is and adds nothing.
 *
 * Order of writes, as the open queue: a report is listed before it is closed, so a crash
 * leaves an entry too many, never a closed report missing; the reader skips an entry whose
 * report is not closed (a close under way) and removes it after a minute, or at once when
 * the report is gone. No moderator's id is kept here: items are read from the reports.
 *
 * Reports closed before this read model existed: `fill` lists every closed report once,
 * oldest first, resuming where the last batch listed ended; until it is done the caller
 * answers from the old query.
 */
export const CLOSED_QUEUE_PREFIX = 'closed:'

/** Entries per bucket: a page of 20 is one or two bucket reads, a bucket stays under 10 KB. */
export const CLOSED_BUCKET_SIZE = 100

/** An entry whose report is not closed after this long is a crash's leftover, not a close under way. */
const LEFTOVER_AFTER_MS = 60_000

/** How long one instance may take to fill the closed queue before another may take over. */
const FILL_LEASE_MS = 10 * 60 * 1000

const HEAD = `${CLOSED_QUEUE_PREFIX}head`
/** The first bucket's key: the one bucket made with the head, holding the whole order until it splits. */
const FIRST = 'c0'
const bucketId = (key: string) => `${CLOSED_QUEUE_PREFIX}${key}`
/** A new bucket's key: a name (`c` and an ObjectId), never read as an array index. */
const newKey = () => `c${new ObjectId().toHexString()}`
/** A report's key in its bucket, `r<reportId>` (an id of digits only would read as an index). */
const entryKey = (reportId: string) => `r${reportId}`

/** What the closed queue needs of a report: its place, filing time then id. */
export type ClosedReport = Pick<ReportDocument, '_id' | 'createdAt'>

/** A place in the queue order. */
interface OrderKey {
  at: Date
  id: string
}

interface ClosedEntry {
  /** When the report was filed: its place in the queue. */
  at: Date
  listedAt: Date
}

interface ClosedBucket {
  _id: string
  key: string
  version: number
  /** The last write: a count in the head that differs from the entries a minute later is healed. */
  writtenAt?: Date
  entries: Record<string, ClosedEntry>
  /** Frozen for a split: entries below `at` go to the first key, the rest to the second. */
  split?: { at: OrderKey; into: [string, string] }
}

interface ClosedHead {
  _id: typeof HEAD
  version: number
  /** Every bucket in queue order with the lowest key it holds (null: from the start). */
  order: Array<{ key: string; low: OrderKey | null }>
  counts: Record<string, number>
  filledAt?: Date
  fillingUntil?: Date
  /** The last report the fill listed: a stopped fill resumes after it. */
  filledTo?: OrderKey
}

/**
 * Rounds in a row a write may lose to other writers before it gives up: each lost round is
 * another writer's progress, so only a head naming a bucket that is not there (which no
 * sequence of these writes leaves) could use them all; the request then fails, not spins.
 */
const MAX_ROUNDS = 1000

function noProgress(what: string): never {
  throw new Error(`closed queue: ${what} made no progress in ${MAX_ROUNDS} rounds`)
}

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

const keyOf = (report: ClosedReport): OrderKey => ({ at: report.createdAt, id: report._id })

/** Queue order, oldest first: filing time, then id (the old query's sort). */
const byOrderKey = (a: OrderKey, b: OrderKey) =>
  a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export function createClosedQueue(db: Db, options: { now?: () => Date; bucketSize?: number } = {}) {
  const now = options.now ?? (() => new Date())
  const bucketSize = Math.max(2, options.bucketSize ?? CLOSED_BUCKET_SIZE)
  // One collection, two kinds of document, each read and written by `_id` only.
  const heads = db.collection<ClosedHead>(REPORT_QUEUE_COLLECTION)
  const buckets = db.collection<ClosedBucket>(REPORT_QUEUE_COLLECTION)

  /** The head, made with its first bucket (the bucket first: a head never names a missing one). */
  async function head(): Promise<ClosedHead> {
    const found = await heads.findOne({ _id: HEAD })
    if (found) return found
    for (const made of [
      () => buckets.insertOne({ _id: bucketId(FIRST), key: FIRST, version: 0, entries: {} }),
      () =>
        heads.insertOne({
          _id: HEAD,
          version: 0,
          order: [{ key: FIRST, low: null }],
          counts: { [FIRST]: 0 },
        }),
    ]) {
      try {
        await made()
      } catch (error) {
        if (!isDuplicateKey(error)) throw error
      }
    }
    return (await heads.findOne({ _id: HEAD }))!
  }

  /** The position in `order` of the bucket whose range holds `key`. */
  function bucketFor(found: ClosedHead, key: OrderKey): number {
    let at = 0
    for (let i = 1; i < found.order.length; i += 1) {
      if (byOrderKey(found.order[i]!.low!, key) <= 0) at = i
      else break
    }
    return at
  }

  const sortedEntries = (bucket: ClosedBucket) =>
    Object.entries(bucket.entries)
      .map(([key, entry]) => ({ id: key.slice(1), ...entry }))
      .sort(byOrderKey)

  /** Finishes a frozen bucket's split: its halves inserted, swapped into the head, itself deleted. */
  async function finishSplit(frozen: ClosedBucket): Promise<void> {
    const { at, into } = frozen.split!
    const entries = Object.entries(frozen.entries)
    const below = (entry: ClosedEntry, key: string) =>
      byOrderKey({ at: entry.at, id: key.slice(1) }, at) < 0
    const halves = [
      Object.fromEntries(entries.filter(([key, entry]) => below(entry, key))),
      Object.fromEntries(entries.filter(([key, entry]) => !below(entry, key))),
    ] as const
    for (const [i, key] of into.entries()) {
      try {
        await buckets.insertOne({ _id: bucketId(key), key, version: 0, entries: halves[i]! })
      } catch (error) {
        // Inserted by whoever began the split (or another finishing it).
        if (!isDuplicateKey(error)) throw error
      }
    }
    for (let round = 1; ; round += 1) {
      if (round > MAX_ROUNDS) noProgress('a split')
      const found = await head()
      const i = found.order.findIndex((bucket) => bucket.key === frozen.key)
      if (i < 0) break // swapped in already
      const order = [
        ...found.order.slice(0, i),
        { key: into[0], low: found.order[i]!.low },
        { key: into[1], low: at },
        ...found.order.slice(i + 1),
      ]
      const swapped = await heads.updateOne(
        { _id: HEAD, version: found.version },
        {
          $set: {
            order,
            [`counts.${into[0]}`]: Object.keys(halves[0]).length,
            [`counts.${into[1]}`]: Object.keys(halves[1]).length,
          },
          $unset: { [`counts.${frozen.key}`]: '' },
          $inc: { version: 1 },
        },
      )
      if (swapped.modifiedCount === 1) break
    }
    await buckets.deleteOne({ _id: bucketId(frozen.key), split: { $exists: true } })
  }

  /**
   * Freezes a full bucket for a split, where `adding` (the keys about to join it, in order)
   * fills it best: past its newest entry, a new bucket from the first of them (reports
   * mostly close in filing order, so buckets fill up rather than stay half full); before its
   * oldest, a new bucket below it; otherwise at its middle entry.
   */
  async function split(bucket: ClosedBucket, adding: OrderKey[]): Promise<void> {
    const held = sortedEntries(bucket)
    const at =
      byOrderKey(adding[0]!, held.at(-1)!) > 0
        ? adding[0]!
        : byOrderKey(adding.at(-1)!, held[0]!) < 0
          ? held[0]!
          : held[Math.floor(held.length / 2)]!
    const frozen = { at: { at: at.at, id: at.id }, into: [newKey(), newKey()] as [string, string] }
    const result = await buckets.updateOne(
      { _id: bucket._id, version: bucket.version, split: { $exists: false } },
      { $set: { split: frozen }, $inc: { version: 1 } },
    )
    if (result.modifiedCount === 1) await finishSplit({ ...bucket, split: frozen })
  }

  /**
   * A bucket the head names; null when the head is stale (the bucket was split meanwhile:
   * the split is finished first, and the caller reads the head again).
   */
  async function current(key: string): Promise<ClosedBucket | null> {
    const bucket = await buckets.findOne({ _id: bucketId(key) })
    if (bucket?.split) await finishSplit(bucket)
    return bucket && !bucket.split ? bucket : null
  }

  /** Reports join the closed queue, each in the bucket its key falls in; one listed already is not added again. */
  async function list(reports: readonly ClosedReport[]): Promise<void> {
    let pending = [...new Map(reports.map((report) => [report._id, keyOf(report)])).values()].sort(
      byOrderKey,
    )
    for (let round = 1; pending.length > 0; round += 1) {
      if (round > MAX_ROUNDS) noProgress('a listing')
      const found = await head()
      const i = bucketFor(found, pending[0]!)
      const next = found.order[i + 1]?.low
      // Pending keys are in order: those of this bucket come first.
      const mine = pending.filter((key) => !next || byOrderKey(key, next) < 0)
      const bucket = await current(found.order[i]!.key)
      if (!bucket) continue
      const fresh = mine.filter((key) => !bucket.entries[entryKey(key.id)])
      if (fresh.length === 0) {
        pending = pending.slice(mine.length)
        round = 0 // progress: the rounds count again
        continue
      }
      const room = bucketSize - Object.keys(bucket.entries).length
      if (room <= 0) {
        await split(bucket, fresh)
        continue
      }
      const chunk = fresh.slice(0, room)
      const listedAt = now()
      const added = await buckets.updateOne(
        { _id: bucket._id, version: bucket.version, split: { $exists: false } },
        {
          $set: {
            ...Object.fromEntries(
              chunk.map((key) => [`entries.${entryKey(key.id)}`, { at: key.at, listedAt }]),
            ),
            writtenAt: listedAt,
          },
          $inc: { version: 1 },
        },
      )
      if (added.modifiedCount === 0) continue // another writer came first: read it again
      await heads.updateOne({ _id: HEAD }, { $inc: { [`counts.${bucket.key}`]: chunk.length } })
      const listed = new Set(chunk.map((key) => key.id))
      pending = pending.filter((key) => !listed.has(key.id))
      round = 0
    }
  }

  /** Reports leave the closed queue (deleted with their user, or a crash's leftover). */
  async function unlist(reports: readonly ClosedReport[]): Promise<void> {
    for (const report of reports) {
      const key = keyOf(report)
      for (let round = 1; ; round += 1) {
        if (round > MAX_ROUNDS) noProgress('an unlisting')
        const found = await head()
        const bucket = await current(found.order[bucketFor(found, key)]!.key)
        if (!bucket) continue
        if (!bucket.entries[entryKey(key.id)]) break
        const removed = await buckets.updateOne(
          { _id: bucket._id, version: bucket.version, split: { $exists: false } },
          {
            $unset: { [`entries.${entryKey(key.id)}`]: '' },
            $set: { writtenAt: now() },
            $inc: { version: 1 },
          },
        )
        if (removed.modifiedCount === 0) continue
        await heads.updateOne({ _id: HEAD }, { $inc: { [`counts.${bucket.key}`]: -1 } })
        break
      }
    }
  }

  /**
   * A crash between a bucket's write and the head's `$inc` leaves its count off for good:
   * a bucket untouched for a minute whose entries differ from its count sets it right
   * (compare-and-set on the count read, so a change meanwhile is not undone).
   */
  async function healCounts(found: ClosedHead, read: Array<ClosedBucket | null>) {
    const settled = now().getTime() - LEFTOVER_AFTER_MS
    for (const bucket of read) {
      if (!bucket || (bucket.writtenAt && bucket.writtenAt.getTime() > settled)) continue
      const held = Object.keys(bucket.entries).length
      const counted = found.counts[bucket.key]
      if (counted === held) continue
      await heads.updateOne(
        { _id: HEAD, [`counts.${bucket.key}`]: counted },
        { $set: { [`counts.${bucket.key}`]: held } },
      )
    }
  }

  return {
    list,
    unlist,

    /**
     * One page of closed reports, most recent first, and how many are closed; null until
     * the queue is filled (the caller answers from the reports themselves). `load` reads
     * reports by `_id`; an entry whose report is gone, or not closed a minute after it was
     * listed, is skipped and removed, and the page read again, so a leftover never shortens
     * a page.
     */
    async page(
      page: number,
      pageSize: number,
      load: (ids: string[]) => Promise<Array<ReportDocument | null>>,
    ): Promise<{ items: ReportDocument[]; total: number } | null> {
      for (let attempt = 1; ; attempt += 1) {
        const found = await head()
        if (!found.filledAt) return null
        const newestFirst = [...found.order]
          .reverse()
          .map(({ key }) => ({ key, count: Math.max(0, found.counts[key] ?? 0) }))
        const total = newestFirst.reduce((sum, bucket) => sum + bucket.count, 0)
        const from = (page - 1) * pageSize
        const covering: string[] = []
        let start = 0
        let skip = 0
        for (const { key, count } of newestFirst) {
          const end = start + count
          if (end > from && start < from + pageSize) {
            if (covering.length === 0) skip = from - start
            covering.push(key)
          }
          start = end
        }
        const read = await Promise.all(covering.map(current))
        // A bucket split since the head was read: the page is worked out again.
        if (read.some((bucket) => bucket === null) && attempt < 5) continue
        await healCounts(found, read)
        const entries = read
          .flatMap((bucket) => (bucket ? sortedEntries(bucket) : []))
          .sort((a, b) => byOrderKey(b, a))
        const wanted = entries.slice(skip, skip + pageSize)
        const reports = await load(wanted.map((entry) => entry.id))
        const at = now().getTime()
        const leftovers = wanted.filter((entry, i) => {
          const report = reports[i]
          if (!report) return true
          return report.status !== 'closed' && at - entry.listedAt.getTime() > LEFTOVER_AFTER_MS
        })
        const items = reports.filter(
          (report): report is ReportDocument => report !== null && report.status === 'closed',
        )
        if (leftovers.length === 0 || attempt >= 3) return { items, total }
        await unlist(leftovers.map((entry) => ({ _id: entry.id, createdAt: entry.at })))
      }
    },

    /**
     * Lists every report closed before this read model existed, oldest first, once; the
     * first instance to start takes a lease so two do not fill at once. `closedReports(after)`
     * lists them from the last one a stopped fill listed (null: from the first; listing one
     * again adds nothing); `stopped` ends it between batches and frees the lease (the next
     * start goes on).
     */
    async fill(
      closedReports: (after: OrderKey | null) => AsyncIterable<ClosedReport>,
      stopped: () => boolean = () => false,
    ): Promise<number> {
      const found = await head()
      if (found.filledAt) return 0
      const at = now()
      const lease = await heads.updateOne(
        {
          _id: HEAD,
          filledAt: { $exists: false },
          $or: [{ fillingUntil: { $exists: false } }, { fillingUntil: { $lt: at } }],
        },
        { $set: { fillingUntil: new Date(at.getTime() + FILL_LEASE_MS) } },
      )
      if (lease.modifiedCount !== 1) return 0
      let listed = 0
      let batch: ClosedReport[] = []
      const flush = async () => {
        if (batch.length === 0) return
        await list(batch)
        // Where a stopped fill resumes: listing a report again would add nothing, only cost.
        // The batch is in the order read, so its last report is the furthest read.
        await heads.updateOne({ _id: HEAD }, { $set: { filledTo: keyOf(batch.at(-1)!) } })
        listed += batch.length
        batch = []
      }
      for await (const report of closedReports(found.filledTo ?? null)) {
        if (stopped()) {
          await heads.updateOne({ _id: HEAD }, { $unset: { fillingUntil: '' } })
          return listed
        }
        batch.push(report)
        if (batch.length === bucketSize) await flush()
      }
      await flush()
      await heads.updateOne(
        { _id: HEAD },
        { $set: { filledAt: now() }, $unset: { fillingUntil: '' } },
      )
      return listed
    },
  }
}

export type ClosedQueue = ReturnType<typeof createClosedQueue>
