import { MongoServerError, ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  findOneAndUpdateWithEvents,
  insertWithEvents,
  type IndexDefinition,
  type OutboxTarget,
} from '@marketplace/service-kit'
import { REPORTS_COLLECTION, type ReportDocument, type ReportTargetType } from './report-document'
import { createClosedQueue } from './closed-queue-repository'
import { createReportQueue, type QueuedReport } from './report-queue-repository'

/** Indexes, equality then sort (docs/reports.md lists the query each serves). */
export const reportIndexes: IndexDefinition[] = [
  // One report per user and target; the database decides, so two parallel submits cannot
  // both succeed (the second gets the 409).
  {
    collection: REPORTS_COLLECTION,
    keys: { reporterId: 1, targetType: 1, targetId: 1 },
    options: { name: 'one_report_per_target', unique: true },
  },
  // The queue: status = ?, oldest first (open) or newest first (closed). Both are read from
  // report_queue (report-queue-repository.ts, closed-queue-repository.ts); this serves their
  // one-time fills (and the pages until those are done).
  {
    collection: REPORTS_COLLECTION,
    keys: { status: 1, createdAt: 1 },
    options: { name: 'queue' },
  },
  // Other open reports of the same target (closed together by a take-down; counted per row);
  // a taken-down message's reports. Every field those filters name is in the key, so no
  // report is read only to be thrown away (issue 19 §2, scripts/check-query-shapes.mjs).
  {
    collection: REPORTS_COLLECTION,
    keys: { targetId: 1, targetType: 1, status: 1 },
    options: { name: 'by_target_and_status' },
  },
  // user.deleted: the reports the purged user closed forget who closed them.
  {
    collection: REPORTS_COLLECTION,
    keys: { closedBy: 1 },
    options: { name: 'by_closer' },
  },
  // user.deleted: reports about the user, their posts or their messages.
  {
    collection: REPORTS_COLLECTION,
    keys: { targetOwnerId: 1 },
    options: { name: 'by_target_owner' },
  },
  {
    collection: REPORTS_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]

export class DuplicateReportError extends Error {}

/** One key per reported thing (a post and a person could in principle share an id). */
export const targetKey = (report: Pick<ReportDocument, 'targetType' | 'targetId'>) =>
  `${report.targetType}:${report.targetId}`

export function createReportsRepository(
  db: Db,
  hooks: { notifyOutbox(target: OutboxTarget): void },
) {
  const reports = db.collection<ReportDocument>(REPORTS_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }
  const queued = {
    projection: { _id: 1, createdAt: 1, targetType: 1, targetId: 1, status: 1 } as Record<
      string,
      1
    >,
  }
  // The open queue, kept beside each write that opens, closes or deletes a report.
  const queue = createReportQueue(db)
  // The closed queue, kept beside each write that closes or deletes a report.
  const closedQueue = createClosedQueue(db)
  const byId = (ids: string[]) =>
    Promise.all(ids.map((id) => reports.findOne({ _id: id }, withoutOutbox)))
  const stillOpen = (found: Array<QueuedReport & Pick<ReportDocument, 'status'>>) =>
    found.filter((report) => report.status === 'open')

  return {
    newId: () => new ObjectId().toHexString(),

    /** Joins the queue before it is stored: a crash in between leaves an entry the reader drops. */
    async insert(report: ReportDocument, events: DomainEvent[]): Promise<void> {
      await queue.join([report])
      try {
        await reports.insertOne(insertWithEvents({ ...report, queued: true }, events))
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) {
          // The reporter's earlier report of this target is the one queued.
          await queue.leave([report])
          throw new DuplicateReportError()
        }
        throw error
      }
      hooks.notifyOutbox({ collection: REPORTS_COLLECTION, id: report._id, outbox: events })
    },

    /**
     * A report filed elsewhere (a message, reported in the conversations service), stored
     * once: false when it is already here (the event replayed) or the reporter already has
     * a report of that message.
     */
    async insertIfNew(report: ReportDocument): Promise<boolean> {
      // A replayed event: the report is here, queued (or closed) already.
      if (await reports.findOne({ _id: report._id }, { projection: { _id: 1 } })) return false
      await queue.join([report])
      try {
        await reports.insertOne({ ...report, queued: true })
        return true
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) {
          // Stored in between by another delivery (then it stays queued while open), or the
          // reporter's earlier report of the message is the one that counts.
          const stored = await reports.findOne({ _id: report._id }, queued)
          if (stored?.status !== 'open') await queue.leave([report])
          return false
        }
        throw error
      }
    },

    /** message.taken-down: every report of the message shows it hidden (index by_target). */
    markMessageTakenDown: async (messageId: string) => {
      await reports.updateMany(
        { targetId: messageId, targetType: 'message' },
        { $set: { 'message.takenDown': true } },
      )
    },

    findById: (id: string) => reports.findOne({ _id: id }, withoutOutbox),

    /** Start-up: the reports stored open before the queue existed join it, oldest first. */
    fillQueue: (stopped: () => boolean) =>
      queue.fill(
        async function* () {
          const open = reports
            .find({ status: 'open' }, { projection: { ...queued.projection, queued: 1 } })
            .sort({ createdAt: 1, _id: 1 })
          // Those stored since joined as they were stored.
          for await (const report of open) if (!report.queued) yield report
        },
        async (ids) => {
          await Promise.all(
            ids.map((_id) => reports.updateOne({ _id }, { $set: { queued: true } })),
          )
        },
        stopped,
      ),

    /**
     * Start-up: the reports closed before the closed queue existed are listed in it, oldest
     * first, from the filing time of the last one a stopped fill listed. Sorted by filing
     * time alone, which the `queue` index holds in order on MongoDB (with `_id` too it would
     * sort every closed report in memory); the reports of that one instant are listed again,
     * which adds nothing.
     */
    fillClosedQueue: (stopped: () => boolean) =>
      closedQueue.fill(
        (after) =>
          reports
            .find(
              { status: 'closed', ...(after ? { createdAt: { $gte: after.at } } : {}) },
              { projection: { _id: 1, createdAt: 1 } },
            )
            .sort({ createdAt: 1 }),
        stopped,
      ),

    /** One page of the queue: open reports oldest first, closed ones most recent first. */
    async page(status: 'open' | 'closed', page: number, pageSize: number) {
      const fromReadModel = await (status === 'open' ? queue : closedQueue).page(
        page,
        pageSize,
        byId,
      )
      if (fromReadModel) return fromReadModel
      // Until the read model's fill is done (the first start after an upgrade).
      const order = status === 'open' ? 1 : -1
      const [items, total] = await Promise.all([
        reports
          .find({ status }, withoutOutbox)
          .sort({ createdAt: order, _id: order })
          .skip((page - 1) * pageSize)
          .limit(pageSize)
          .toArray(),
        reports.countDocuments({ status }),
      ])
      return { items, total }
    },

    countOverdue: async (before: Date) =>
      (await queue.countOverdue(before)) ??
      reports.countDocuments({ status: 'open', createdAt: { $lt: before } }),

    openOfTarget: (targetType: ReportTargetType, targetId: string) =>
      reports
        .find({ targetId, targetType, status: 'open' }, withoutOutbox)
        .sort({ createdAt: 1 })
        .toArray(),

    /** How many open reports each of these reports' targets has, by `targetKey`. */
    async openCountsOf(of: ReportDocument[]): Promise<Map<string, number>> {
      const counts = new Map<string, number>()
      if (of.length === 0) return counts
      const fromQueue = await queue.openCounts(of)
      if (fromQueue) return fromQueue
      const open = await reports
        .find(
          { status: 'open', targetId: { $in: [...new Set(of.map((r) => r.targetId))] } },
          { projection: { targetType: 1, targetId: 1 } },
        )
        .toArray()
      for (const report of open)
        counts.set(targetKey(report), (counts.get(targetKey(report)) ?? 0) + 1)
      return counts
    },

    /**
     * Applies `update` while the report is still open; the closed report, or null. Listed in
     * the closed queue first: a crash in between leaves an entry the reader drops, and a
     * report closed by someone else meanwhile is closed all the same.
     */
    async closeIfOpen(
      report: QueuedReport,
      update: UpdateFilter<ReportDocument>,
      events: DomainEvent[],
    ): Promise<ReportDocument | null> {
      const id = report._id
      await closedQueue.list([report])
      const result = await findOneAndUpdateWithEvents(
        reports,
        { _id: id, status: 'open' } as Filter<ReportDocument>,
        update,
        events,
      )
      if (result && events.length > 0) hooks.notifyOutbox({ collection: REPORTS_COLLECTION, id })
      // Left after the close: a crash in between leaves an entry the reader drops.
      if (result) await queue.leave([result])
      return result
    },

    /**
     * post.deleted: its open reports have nothing left to review. One opened between the
     * read and the update is closed too; the open queue's reader drops its entry, and it is
     * listed in the closed queue after (as is every report the deletion closed, so a
     * replayed event mends what a crash left).
     */
    closeOfDeletedPost: async (targetId: string, at: Date) => {
      const filter = { targetId, targetType: 'post' as const, status: 'open' as const }
      const open = await reports.find(filter, queued).toArray()
      await closedQueue.list(open)
      await reports.updateMany(filter, {
        $set: { status: 'closed', closedAt: at, closedBy: null, action: 'target-deleted' },
      })
      await queue.leave(open)
      const closedByDeletion = await reports
        .find({ ...filter, status: 'closed' }, { projection: { ...queued.projection, action: 1 } })
        .toArray()
      await closedQueue.list(closedByDeletion.filter((r) => r.action === 'target-deleted'))
    },

    /** user.deleted: reports the user made, and reports about them or their posts. */
    async deleteOfUser(userId: string): Promise<void> {
      const theirs = [
        ...(await reports.find({ reporterId: userId }, queued).toArray()),
        ...(await reports.find({ targetOwnerId: userId }, queued).toArray()),
      ]
      await reports.deleteMany({ reporterId: userId })
      await reports.deleteMany({ targetOwnerId: userId })
      await queue.leave(stillOpen(theirs))
      await closedQueue.unlist(theirs.filter((report) => report.status === 'closed'))
      // A moderator who is purged leaves the reports they closed, without their id (the
      // closed queue keeps no moderator's id: it is read from here).
      await reports.updateMany({ closedBy: userId }, { $set: { closedBy: null } })
    },
  }
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>
