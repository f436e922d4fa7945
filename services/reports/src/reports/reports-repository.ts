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

/** Indexes, equality then sort (docs/reports.md lists the query each serves). */
export const reportIndexes: IndexDefinition[] = [
  // One report per user and target; the database decides, so two parallel submits cannot
  // both succeed (the second gets the 409).
  {
    collection: REPORTS_COLLECTION,
    keys: { reporterId: 1, targetType: 1, targetId: 1 },
    options: { name: 'one_report_per_target', unique: true },
  },
  // The moderation queue: status = ?, oldest first (open) or most recent first (closed),
  // `_id` breaking ties, a page at a time; and the overdue count (open, filed before ?). The
  // queue is small (what moderators have yet to review, and what they closed), and MongoDB
  // walks this index in order and stops at the page. The local FerretDB scans the reports
  // instead, which is fine at its sizes.
  {
    collection: REPORTS_COLLECTION,
    keys: { status: 1, createdAt: 1, _id: 1 },
    options: { name: 'queue_in_order' },
  },
  // Other open reports of the same target (closed together by a take-down; counted per row);
  // a taken-down message's reports. Every field those filters name is in the key, so no
  // report is read only to be thrown away (scripts/check-query-shapes.mjs checks it).
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

  return {
    newId: () => new ObjectId().toHexString(),

    /** Stores the report with its event; a second report of the same target by its reporter is refused. */
    async insert(report: ReportDocument, events: DomainEvent[]): Promise<void> {
      try {
        await reports.insertOne(insertWithEvents(report, events))
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) {
          throw new DuplicateReportError()
        }
        throw error
      }
      hooks.notifyOutbox({ collection: REPORTS_COLLECTION, id: report._id, outbox: events })
    },

    /**
     * A report filed elsewhere (a message, reported in the conversations service), stored
     * once: false when it is already here (the event replayed) or the reporter already has
     * a report of that message (the unique index says so).
     */
    async insertIfNew(report: ReportDocument): Promise<boolean> {
      try {
        await reports.insertOne(report)
        return true
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) return false
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

    /**
     * One page of the queue, open reports oldest first, closed ones most recent first: a
     * query on the `queue_in_order` index. How many there are comes with the counts below.
     */
    pageOf: (status: 'open' | 'closed', page: number, pageSize: number) => {
      const order = status === 'open' ? 1 : -1
      return reports
        .find({ status }, withoutOutbox)
        .sort({ createdAt: order, _id: order })
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .toArray()
    },

    /** Open reports filed before `before` (past the review time). */
    countOverdue: (before: Date) =>
      reports.countDocuments({ status: 'open', createdAt: { $lt: before } }),

    /**
     * The closed queue's size and the overdue count in one query: the closed reports and the
     * overdue open ones, counted by status on the server (the two sets do not overlap, so
     * one grouping tells them apart).
     */
    async closedAndOverdue(before: Date): Promise<{ closed: number; overdue: number }> {
      const grouped = await reports
        .aggregate<{ _id: ReportDocument['status']; count: number }>([
          {
            $match: { $or: [{ status: 'closed' }, { status: 'open', createdAt: { $lt: before } }] },
          },
          { $group: { _id: '$status', count: { $sum: 1 } } },
        ])
        .toArray()
      const of = (status: ReportDocument['status']) =>
        grouped.find((group) => group._id === status)?.count ?? 0
      return { closed: of('closed'), overdue: of('open') }
    },

    /**
     * How many open reports every reported target has, by `targetKey`: the open queue's size
     * (their sum) and each row's "open reports on this target" in one query. One row per
     * target the moderators have yet to review: the open queue is what they work through,
     * not the reports' history.
     */
    async openCountsOfEveryTarget(): Promise<Map<string, number>> {
      const grouped = await reports
        .aggregate<{ _id: { targetType: ReportTargetType; targetId: string }; open: number }>([
          { $match: { status: 'open' } },
          {
            $group: {
              _id: { targetType: '$targetType', targetId: '$targetId' },
              open: { $sum: 1 },
            },
          },
        ])
        .toArray()
      return new Map(grouped.map(({ _id, open }) => [targetKey(_id), open]))
    },

    openOfTarget: (targetType: ReportTargetType, targetId: string) =>
      reports
        .find({ targetId, targetType, status: 'open' }, withoutOutbox)
        .sort({ createdAt: 1 })
        .toArray(),

    /**
     * How many open reports each of these reports' targets has, by `targetKey`: one query
     * that counts on the server, so a much-reported target sends its count, not its reports.
     */
    async openCountsOf(of: ReportDocument[]): Promise<Map<string, number>> {
      const counts = new Map<string, number>()
      if (of.length === 0) return counts
      const grouped = await reports
        .aggregate<{ _id: { targetType: ReportTargetType; targetId: string }; open: number }>([
          {
            $match: {
              targetId: { $in: [...new Set(of.map((r) => r.targetId))] },
              targetType: { $in: [...new Set(of.map((r) => r.targetType))] },
              status: 'open',
            },
          },
          {
            $group: {
              _id: { targetType: '$targetType', targetId: '$targetId' },
              open: { $sum: 1 },
            },
          },
        ])
        .toArray()
      for (const { _id, open } of grouped) counts.set(targetKey(_id), open)
      return counts
    },

    /** Applies `update` while the report is still open; the closed report, or null. */
    async closeIfOpen(
      report: Pick<ReportDocument, '_id'>,
      update: UpdateFilter<ReportDocument>,
      events: DomainEvent[],
    ): Promise<ReportDocument | null> {
      const id = report._id
      const result = await findOneAndUpdateWithEvents(
        reports,
        { _id: id, status: 'open' } as Filter<ReportDocument>,
        update,
        events,
      )
      if (result && events.length > 0) hooks.notifyOutbox({ collection: REPORTS_COLLECTION, id })
      return result
    },

    /** post.deleted: its open reports have nothing left to review. */
    closeOfDeletedPost: async (targetId: string, at: Date) => {
      await reports.updateMany(
        { targetId, targetType: 'post', status: 'open' },
        { $set: { status: 'closed', closedAt: at, closedBy: null, action: 'target-deleted' } },
      )
    },

    /** user.deleted: reports the user made, and reports about them or their posts. */
    async deleteOfUser(userId: string): Promise<void> {
      await reports.deleteMany({ reporterId: userId })
      await reports.deleteMany({ targetOwnerId: userId })
      // A moderator who is purged leaves the reports they closed, without their id.
      await reports.updateMany({ closedBy: userId }, { $set: { closedBy: null } })
    },
  }
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>
