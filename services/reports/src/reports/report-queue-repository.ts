import { MongoServerError, type Db } from 'mongodb'
import type { ReportDocument } from './report-document'

/**
 * The open moderation queue as a read model addressed by `_id` (issue 19 §2): a page of open
 * reports oldest first, their count, the overdue count and each target's open count, read
 * from a few documents whatever the number of reports ever filed. The local server (FerretDB
 * v1) uses no index but `_id` and sorts in memory, so the query it replaces
 * (`find({status: 'open'}).sort({createdAt, _id}).skip().limit()` and its counts) read every
 * report. On MongoDB the same page is one `_id` read of the head, one or two of buckets and
 * one per report on the page, against an index walk of `queue` plus two counts that grow with
 * the open reports.
 *
 * The documents, all in one collection:
 * - buckets `bucket:<n>`: the open reports that joined it, `entries.r<reportId>` with when the
 *   report was filed (its queue position), when it joined and its target. A report joins the
 *   newest bucket when it is opened and leaves its bucket when it is closed or deleted; a
 *   bucket takes `QUEUE_BUCKET_SIZE` joins, then the next one is the newest.
 * - the head `head`: the newest bucket's number and, per bucket still holding open reports,
 *   how many it holds and the range of their filing times. The page, the total and the
 *   overdue count are worked out from it, reading only the buckets the page covers (and
 *   those that straddle the overdue line).
 * - per target `target:<type>:<id>`: how many open reports it has.
 *
 * Queue order is by filing time, then id, as before. Reports mostly join in that order, but
 * a message report is filed in the conversations service and joins when its event arrives,
 * so buckets whose ranges overlap are read and sorted together (`segments`).
 *
 * Order of writes, as the per-user lists (service-kit lists/user-lists.ts): a report joins
 * before it is stored and leaves after it is closed or deleted, so a crash leaves an entry
 * too many, never an open report missing from the queue. The reader skips such an entry and
 * removes it (a closed report's, or a missing one's that joined over a minute ago), so the
 * counts heal where a moderator looks. Three documents change per join or leave without a
 * transaction: between the bucket write and the head's, the total may be one off for that
 * moment.
 *
 * Reports stored before the queue existed: `fill` joins every open report once, oldest
 * first, at start; until it is done the caller answers from the old queries.
 */
export const REPORT_QUEUE_COLLECTION = 'report_queue'

/** Joins per bucket: a page of 20 is one or two bucket reads, a bucket stays under 10 KB. */
export const QUEUE_BUCKET_SIZE = 100

/** An entry with no report behind it after this long is a crash's leftover, not an insert under way. */
const LEFTOVER_AFTER_MS = 60_000

/** How long one instance may take to fill the queue before another may take over. */
const FILL_LEASE_MS = 10 * 60 * 1000

const HEAD = 'head'
const bucketId = (n: number) => `bucket:${n}`
/**
 * A report's key in its bucket, `r<reportId>`: a name even for an id of digits only (a
 * message report's id comes from another service), which a path could read as an index.
 */
const entryKey = (reportId: string) => `r${reportId}`
/** A bucket's summary in the head, keyed `b<n>`: a key that reads as a name, never an array index. */
const summaryOf = (n: number) => `buckets.b${n}`

/** What the queue needs of a report. */
export type QueuedReport = Pick<ReportDocument, '_id' | 'createdAt' | 'targetType' | 'targetId'>

interface QueueEntry {
  /** When the report was filed: its place in the queue. */
  at: Date
  joinedAt: Date
  /** `targetKey` of the report (reports-repository.ts): its target's open count. */
  target: string
}

interface QueueBucket {
  _id: string
  n: number
  joined: number
  entries: Record<string, QueueEntry>
}

interface BucketSummary {
  open: number
  minAt: Date
  maxAt: Date
}

interface QueueHead {
  _id: typeof HEAD
  newest: number
  buckets: Record<string, BucketSummary>
  filledAt?: Date
  fillingUntil?: Date
}

interface TargetCount {
  _id: string
  open: number
}

/** One of the buckets, with its number. */
type Summary = BucketSummary & { n: number }

/** Buckets whose filing times overlap, read and sorted together. */
interface Segment {
  buckets: number[]
  open: number
  maxAt: Date
}

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

const targetOf = (report: Pick<ReportDocument, 'targetType' | 'targetId'>) =>
  `${report.targetType}:${report.targetId}`

const byQueueOrder = (a: { id: string; at: Date }, b: { id: string; at: Date }) =>
  a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export function createReportQueue(db: Db, options: { now?: () => Date; bucketSize?: number } = {}) {
  const now = options.now ?? (() => new Date())
  const bucketSize = options.bucketSize ?? QUEUE_BUCKET_SIZE
  // One collection, three kinds of document, each read and written by `_id` only.
  const heads = db.collection<QueueHead>(REPORT_QUEUE_COLLECTION)
  const buckets = db.collection<QueueBucket>(REPORT_QUEUE_COLLECTION)
  const targets = db.collection<TargetCount>(REPORT_QUEUE_COLLECTION)
  const targetId = (target: string) => `target:${target}`

  async function head(): Promise<QueueHead> {
    const found = await heads.findOne({ _id: HEAD })
    if (found) return found
    try {
      await heads.insertOne({ _id: HEAD, newest: 0, buckets: {} })
    } catch (error) {
      if (!isDuplicateKey(error)) throw error
    }
    return (await heads.findOne({ _id: HEAD }))!
  }

  const summariesOf = (found: QueueHead): Summary[] =>
    Object.entries(found.buckets)
      .map(([key, summary]) => ({ ...summary, n: Number(key.slice(1)) }))
      .filter((summary) => summary.open > 0)
      .sort((a, b) => a.n - b.n)

  async function countTargets(counts: Map<string, number>) {
    await Promise.all(
      [...counts].map(async ([target, by]) => {
        for (let attempt = 1; ; attempt += 1) {
          try {
            await targets.updateOne(
              { _id: targetId(target) },
              { $inc: { open: by } },
              { upsert: true },
            )
            break
          } catch (error) {
            // Two first upserts at once: the second finds the document on its retry.
            if (!isDuplicateKey(error) || attempt === 2) throw error
          }
        }
        // Nothing open about it any more: the collection keeps only targets under review.
        if (by < 0) await targets.deleteOne({ _id: targetId(target), open: { $lte: 0 } })
      }),
    )
  }

  /** Reports join the newest bucket, in the order given; one already in it is not added again. */
  async function join(reports: readonly QueuedReport[]): Promise<void> {
    let rest = [...reports]
    while (rest.length > 0) {
      const { newest: n } = await head()
      const bucket = await buckets.findOne({ _id: bucketId(n) })
      const joined = bucket?.joined ?? 0
      if (joined >= bucketSize) {
        // Full: the next bucket is the newest (compare-and-set: of two joiners one moves it).
        await heads.updateOne({ _id: HEAD, newest: n }, { $set: { newest: n + 1 } })
        continue
      }
      rest = rest.filter((report) => !bucket?.entries[entryKey(report._id)])
      const chunk = rest.slice(0, bucketSize - joined)
      if (chunk.length === 0) return
      const joinedAt = now()
      const entries = chunk.map(
        (report) =>
          [report._id, { at: report.createdAt, joinedAt, target: targetOf(report) }] as const,
      )
      try {
        if (bucket) {
          const result = await buckets.updateOne(
            { _id: bucketId(n), joined },
            {
              $set: Object.fromEntries(
                entries.map(([id, entry]) => [`entries.${entryKey(id)}`, entry]),
              ),
              $inc: { joined: chunk.length },
            },
          )
          if (result.modifiedCount === 0) continue // another join came first: read it again
        } else {
          await buckets.insertOne({
            _id: bucketId(n),
            n,
            joined: chunk.length,
            entries: Object.fromEntries(entries.map(([id, entry]) => [entryKey(id), entry])),
          })
        }
      } catch (error) {
        if (isDuplicateKey(error)) continue
        throw error
      }
      const times = chunk.map((report) => report.createdAt.getTime())
      await heads.updateOne(
        { _id: HEAD },
        {
          $inc: { [`${summaryOf(n)}.open`]: chunk.length },
          $min: { [`${summaryOf(n)}.minAt`]: new Date(Math.min(...times)) },
          $max: { [`${summaryOf(n)}.maxAt`]: new Date(Math.max(...times)) },
        },
      )
      const counts = new Map<string, number>()
      for (const [, entry] of entries) counts.set(entry.target, (counts.get(entry.target) ?? 0) + 1)
      await countTargets(counts)
      rest = rest.slice(chunk.length)
    }
  }

  /** Takes entries out of the buckets named, counting down what each removal changed. */
  async function unlist(from: Array<{ n: number; id: string; target: string }>) {
    const removedPer = new Map<number, number>()
    const counts = new Map<string, number>()
    for (const { n, id, target } of from) {
      const result = await buckets.updateOne(
        { _id: bucketId(n), [`entries.${entryKey(id)}`]: { $exists: true } },
        { $unset: { [`entries.${entryKey(id)}`]: '' } },
      )
      if (result.modifiedCount !== 1) continue
      removedPer.set(n, (removedPer.get(n) ?? 0) + 1)
      counts.set(target, (counts.get(target) ?? 0) - 1)
    }
    if (removedPer.size === 0) return
    await heads.updateOne(
      { _id: HEAD },
      { $inc: Object.fromEntries([...removedPer].map(([n, by]) => [`${summaryOf(n)}.open`, -by])) },
    )
    await countTargets(counts)
    // A bucket left empty and no longer taking joins drops out of the head.
    const { newest } = await head()
    for (const n of removedPer.keys()) {
      if (n === newest) continue
      await heads.updateOne(
        { _id: HEAD, [`${summaryOf(n)}.open`]: { $lte: 0 } },
        { $unset: { [summaryOf(n)]: '' } },
      )
    }
  }

  /**
   * Reports leave the queue: each from every bucket whose range holds its filing time (and
   * the newest, whose range may not be written yet).
   */
  async function leave(reports: readonly QueuedReport[]): Promise<void> {
    if (reports.length === 0) return
    const found = await head()
    const summaries = summariesOf(found)
    const from = reports.flatMap((report) => {
      const at = report.createdAt.getTime()
      const holding = summaries
        .filter((s) => s.minAt.getTime() <= at && at <= s.maxAt.getTime())
        .map((s) => s.n)
      return [...new Set([...holding, found.newest])].map((n) => ({
        n,
        id: report._id,
        target: targetOf(report),
      }))
    })
    await unlist(from)
  }

  /**
   * Buckets whose filing times overlap form one segment; segments are disjoint and in queue
   * order. A bucket that reaches back (a message report filed before entries of earlier
   * buckets) merges every segment it overlaps, which are the last ones.
   */
  function segmentsOf(summaries: Summary[]): Segment[] {
    const segments: Segment[] = []
    for (const summary of summaries) {
      let first = segments.length
      while (first > 0 && segments[first - 1]!.maxAt.getTime() >= summary.minAt.getTime()) {
        first -= 1
      }
      const merged = segments.splice(first)
      segments.push({
        buckets: [...merged.flatMap((segment) => segment.buckets), summary.n],
        open: merged.reduce((sum, segment) => sum + segment.open, summary.open),
        maxAt: new Date(
          Math.max(summary.maxAt.getTime(), ...merged.map((segment) => segment.maxAt.getTime())),
        ),
      })
    }
    return segments
  }

  /** The entries of some buckets in queue order, each id once (a later copy is a leftover). */
  async function entriesOf(numbers: number[]) {
    const found = await Promise.all(numbers.map((n) => buckets.findOne({ _id: bucketId(n) })))
    const all = found.flatMap((bucket) =>
      bucket
        ? Object.entries(bucket.entries).map(([key, entry]) => ({
            id: key.slice(1),
            n: bucket.n,
            ...entry,
          }))
        : [],
    )
    all.sort((a, b) => byQueueOrder(a, b) || a.n - b.n)
    const seen = new Set<string>()
    const unique: typeof all = []
    const copies: typeof all = []
    for (const entry of all) {
      if (seen.has(entry.id)) copies.push(entry)
      else unique.push(entry)
      seen.add(entry.id)
    }
    return { unique, copies }
  }

  return {
    join,
    leave,

    /**
     * One page of open reports, oldest first, and how many are open; null until the queue
     * is filled (the caller answers from the reports themselves). `load` reads reports by
     * `_id`; an entry whose report is not open is skipped and removed, and the page read
     * again, so a leftover never shortens a page.
     */
    async page(
      page: number,
      pageSize: number,
      load: (ids: string[]) => Promise<Array<ReportDocument | null>>,
    ): Promise<{ items: ReportDocument[]; total: number } | null> {
      for (let attempt = 1; ; attempt += 1) {
        const found = await head()
        if (!found.filledAt) return null
        const segments = segmentsOf(summariesOf(found))
        const total = segments.reduce((sum, segment) => sum + segment.open, 0)
        const from = (page - 1) * pageSize
        const covering: number[] = []
        let start = 0
        let skip = 0
        for (const segment of segments) {
          const end = start + segment.open
          if (end > from && start < from + pageSize) {
            if (covering.length === 0) skip = from - start
            covering.push(...segment.buckets)
          }
          start = end
        }
        const { unique, copies } = await entriesOf(covering)
        const wanted = unique.slice(Math.max(0, skip), Math.max(0, skip) + pageSize)
        const reports = await load(wanted.map((entry) => entry.id))
        const at = now().getTime()
        const leftovers = [
          ...copies,
          ...wanted.filter((entry, i) => {
            const report = reports[i]
            if (report) return report.status !== 'open'
            return at - entry.joinedAt.getTime() > LEFTOVER_AFTER_MS
          }),
        ]
        const items = reports.filter(
          (report): report is ReportDocument => report !== null && report.status === 'open',
        )
        if (leftovers.length === 0 || attempt === 3) return { items, total }
        await unlist(leftovers)
      }
    },

    /** Open reports filed before `before`: whole buckets from the head, straddling ones read. */
    async countOverdue(before: Date): Promise<number | null> {
      const found = await head()
      if (!found.filledAt) return null
      let overdue = 0
      const straddling: number[] = []
      for (const summary of summariesOf(found)) {
        if (summary.maxAt < before) overdue += summary.open
        else if (summary.minAt < before) straddling.push(summary.n)
      }
      const { unique } = await entriesOf(straddling)
      return overdue + unique.filter((entry) => entry.at < before).length
    },

    /** How many open reports each target has, by `targetKey`; null until the queue is filled. */
    async openCounts(
      of: ReadonlyArray<Pick<ReportDocument, 'targetType' | 'targetId'>>,
    ): Promise<Map<string, number> | null> {
      if (!(await head()).filledAt) return null
      const keys = [...new Set(of.map(targetOf))]
      const found = await Promise.all(keys.map((key) => targets.findOne({ _id: targetId(key) })))
      return new Map(keys.map((key, i) => [key, Math.max(0, found[i]?.open ?? 0)]))
    },

    /**
     * Joins every report stored open before the queue existed, oldest first, once; the
     * first instance to start takes a lease so two do not fill at once. `openReports` lists
     * them in queue order (those not marked joined); `markJoined` marks each batch once
     * joined; `stopped` ends it between batches and frees the lease (the next start goes on).
     */
    async fill(
      openReports: () => AsyncIterable<QueuedReport>,
      markJoined: (ids: string[]) => Promise<void>,
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
      let joined = 0
      let batch: QueuedReport[] = []
      const flush = async () => {
        await join(batch)
        // Marked as joined: a fill stopped and resumed does not join them twice.
        await markJoined(batch.map((report) => report._id))
        joined += batch.length
        batch = []
      }
      for await (const report of openReports()) {
        if (stopped()) {
          await heads.updateOne({ _id: HEAD }, { $unset: { fillingUntil: '' } })
          return joined
        }
        batch.push(report)
        if (batch.length === bucketSize) await flush()
      }
      await flush()
      await heads.updateOne(
        { _id: HEAD },
        { $set: { filledAt: now() }, $unset: { fillingUntil: '' } },
      )
      return joined
    },
  }
}

export type ReportQueue = ReturnType<typeof createReportQueue>
