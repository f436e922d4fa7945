import type {
  ModerationQueue,
  ModerationReport,
  ReportPersonBody,
  ReportPostBody,
  ResolveReportBody,
} from '@marketplace/contracts/api'
import type { EventData } from '@marketplace/contracts/events'
import { ROLES, isReportReason, type ReportReason } from '@marketplace/contracts/marketplace'
import { Messages, validateReport } from '@marketplace/contracts/validation'
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  newEvent,
  type Caller,
} from '@marketplace/service-kit'
import {
  isVisiblePerson,
  isVisiblePost,
  type PeopleCatalog,
  type PostCatalog,
} from '@marketplace/read-models/catalogs'
import type { ReportDocument, ReportTargetType } from './report-document'
import { messageReportOf } from './message-reports'
import { moderationView } from './report-views'
import { DuplicateReportError, targetKey, type ReportsRepository } from './reports-repository'

interface Context {
  callerId: string
  requestId?: string
}

const ID = /^[0-9a-zA-Z_-]{1,64}$/

const MODERATOR_ROLES: readonly string[] = [ROLES.Admin, ROLES.Editor]

/** Only administrators (2001) and editors (2002) review reports; everyone else gets 403. */
export function assertModerator(caller: Caller): void {
  if (!caller.roles.some((role) => MODERATOR_ROLES.includes(role))) {
    throw new ForbiddenError(Messages.reports.moderatorsOnly, 'MODERATORS_ONLY')
  }
}

/**
 * Reports and their moderation (each report is to be reviewed within 24 hours, and the
 * platform may remove the content). A user reports a post or a person once here, a message in
 * the conversations service (message.reported); a moderator dismisses a report or takes the
 * content down, which closes every open report of that content and tells jobs, people or
 * conversations through report.resolved.
 */
export function createReportsService(deps: {
  reports: ReportsRepository
  posts: PostCatalog
  people: PeopleCatalog
  reviewHours: number
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  /** The body's rules, with the spec's messages (the route's schema only typed the fields). */
  function readBody(
    body: { type?: string; description?: string | null },
    idField: 'postId' | 'reportedId',
    targetId: string | undefined,
  ) {
    const { type: reason, description } = body
    const problem = validateReport({ type: reason ?? null, description: description ?? null })
    if (problem) throw new BadRequestError(problem, 'INVALID_REPORT')
    if (targetId === undefined || !ID.test(targetId)) {
      throw new BadRequestError(`${idField} must name what you are reporting`, 'INVALID_REPORT')
    }
    // validateReport admitted only the spec's reasons.
    return { reason: reason as ReportReason, description: (description ?? '').trim(), targetId }
  }

  async function submit(
    // Messages are reported in the conversations service (fileMessageReport).
    targetType: Exclude<ReportTargetType, 'message'>,
    target: { id: string; ownerId: string },
    fields: ReturnType<typeof readBody>,
    context: Context,
  ): Promise<ReportDocument> {
    const at = now()
    const report: ReportDocument = {
      _id: deps.reports.newId(),
      reporterId: context.callerId,
      targetType,
      targetId: target.id,
      targetOwnerId: target.ownerId,
      reason: fields.reason,
      description: fields.description,
      status: 'open',
      createdAt: at,
      closedAt: null,
      closedBy: null,
      action: null,
    }
    try {
      await deps.reports.insert(report, [
        newEvent('report.created', {
          aggregateId: report._id,
          actorId: context.callerId,
          requestId: context.requestId,
          data: {
            reportId: report._id,
            reporterId: report.reporterId,
            targetType,
            targetId: target.id,
            targetOwnerId: target.ownerId,
            reason: report.reason,
            createdAt: at.toISOString(),
          },
        }),
      ])
    } catch (error) {
      if (!(error instanceof DuplicateReportError)) throw error
      const message =
        targetType === 'post'
          ? Messages.reports.alreadyReportedPost
          : Messages.reports.alreadyReportedPerson
      throw new ConflictError(message, 'ALREADY_REPORTED')
    }
    return report
  }

  /**
   * Reports as the queue shows them, with one query per kind of data for the whole page (the
   * posts, the people, the open reports of those targets), not one read per row.
   */
  /**
   * The reports as the queue shows them. `knownOpenCounts` (the open queue has every target's
   * count already) spares the query for this page's targets.
   */
  async function views(
    reports: ReportDocument[],
    at: Date,
    knownOpenCounts?: Map<string, number>,
  ): Promise<ModerationReport[]> {
    const idsOf = (type: ReportTargetType) =>
      reports.filter((r) => r.targetType === type).map((r) => r.targetId)
    // A message's sender is named as people know them now (the excerpt's name is a fallback).
    const senders = reports.filter((r) => r.targetType === 'message').map((r) => r.targetOwnerId)
    const [posts, people, openCounts] = await Promise.all([
      deps.posts.findMany([...new Set(idsOf('post'))]),
      deps.people.findMany([
        ...new Set([...idsOf('person'), ...senders, ...reports.map((r) => r.reporterId)]),
      ]),
      knownOpenCounts ?? deps.reports.openCountsOf(reports),
    ])
    return reports.map((report) =>
      moderationView(report, {
        target:
          report.targetType === 'post'
            ? posts.get(report.targetId)
            : report.targetType === 'person'
              ? people.get(report.targetId)
              : null,
        sender: report.targetType === 'message' ? people.get(report.targetOwnerId) : null,
        reporter: people.get(report.reporterId),
        openReportsOnTarget: openCounts.get(targetKey(report)) ?? 0,
        reviewHours: deps.reviewHours,
        now: at,
      }),
    )
  }

  async function existing(reportId: string): Promise<ReportDocument> {
    const report = ID.test(reportId) ? await deps.reports.findById(reportId) : null
    if (!report) throw new NotFoundError(Messages.reports.reportNotFound, 'REPORT_NOT_FOUND')
    return report
  }

  return {
    /** POST /api/reports/posts {postId, type, description} */
    async reportPost(body: ReportPostBody, context: Context) {
      const fields = readBody(body, 'postId', body.postId)
      const post = await deps.posts.findById(fields.targetId)
      if (!isVisiblePost(post)) {
        throw new NotFoundError(Messages.reports.postNotFound, 'POST_NOT_FOUND')
      }
      if (post.ownerId === context.callerId) {
        throw new BadRequestError(Messages.reports.cannotReportYourselfServer, 'OWN_CONTENT')
      }
      return submit('post', { id: post._id, ownerId: post.ownerId }, fields, context)
    },

    /** POST /api/reports/people {reportedId, type, description} */
    async reportPerson(body: ReportPersonBody, context: Context) {
      const fields = readBody(body, 'reportedId', body.reportedId)
      if (fields.targetId === context.callerId) {
        throw new BadRequestError(Messages.reports.cannotReportYourselfServer, 'OWN_CONTENT')
      }
      const person = await deps.people.findById(fields.targetId)
      if (!isVisiblePerson(person)) {
        throw new NotFoundError(Messages.reports.personNotFound, 'PERSON_NOT_FOUND')
      }
      return submit('person', { id: person._id, ownerId: person._id }, fields, context)
    },

    /** The moderation queue: open reports oldest first (closed: most recent first). */
    async queue(
      status: 'open' | 'closed',
      page: number,
      pageSize: number,
    ): Promise<ModerationQueue> {
      const at = now()
      const overdueBefore = new Date(at.getTime() - deps.reviewHours * 60 * 60 * 1000)
      const answer = async (
        items: ReportDocument[],
        total: number,
        overdue: number,
        openCounts?: Map<string, number>,
      ) => ({
        reports: await views(items, at, openCounts),
        pagination: { page, totalPages: Math.max(1, Math.ceil(total / pageSize)), total },
        reviewWithinHours: deps.reviewHours,
        overdue,
      })
      // Five commands whatever the number of reports: the page and the counts together, then
      // the posts and the people the page names (and, for closed reports, their targets'
      // open counts). The open queue's size is the sum of its targets' open counts.
      if (status === 'open') {
        const [items, overdue, openCounts] = await Promise.all([
          deps.reports.pageOf('open', page, pageSize),
          deps.reports.countOverdue(overdueBefore),
          deps.reports.openCountsOfEveryTarget(),
        ])
        const total = [...openCounts.values()].reduce((sum, open) => sum + open, 0)
        return answer(items, total, overdue, openCounts)
      }
      const [items, { closed, overdue }] = await Promise.all([
        deps.reports.pageOf('closed', page, pageSize),
        deps.reports.closedAndOverdue(overdueBefore),
      ])
      return answer(items, closed, overdue)
    },

    async details(reportId: string): Promise<ModerationReport> {
      const [view] = await views([await existing(reportId)], now())
      return view!
    },

    /**
     * PATCH /api/reports/{id} {action}. Dismiss closes this report; take-down closes every
     * open report of the same content, each with its report.resolved (jobs takes the post
     * offline for good, people hides the worker profile).
     */
    async resolve(
      reportId: string,
      body: ResolveReportBody,
      context: Context,
    ): Promise<ModerationReport> {
      const { action } = body
      if (action !== 'dismiss' && action !== 'take-down') {
        throw new BadRequestError(Messages.reports.invalidAction, 'INVALID_ACTION')
      }
      const report = await existing(reportId)
      if (report.status !== 'open') {
        throw new ConflictError(Messages.reports.alreadyClosed, 'REPORT_CLOSED')
      }
      const at = now()
      const close = (target: ReportDocument) =>
        deps.reports.closeIfOpen(
          target,
          { $set: { status: 'closed', closedAt: at, closedBy: context.callerId, action } },
          [
            newEvent('report.resolved', {
              aggregateId: target._id,
              actorId: context.callerId,
              requestId: context.requestId,
              data: {
                reportId: target._id,
                targetType: target.targetType,
                targetId: target.targetId,
                action,
              },
            }),
          ],
        )
      const closed = await close(report)
      // Another moderator closed it between the read and this write.
      if (!closed) throw new ConflictError(Messages.reports.alreadyClosed, 'REPORT_CLOSED')
      if (action === 'take-down') {
        for (const other of await deps.reports.openOfTarget(report.targetType, report.targetId))
          await close(other)
      }
      const [view] = await views([closed], at)
      return view!
    },

    closeOfDeletedPost: (postId: string) => deps.reports.closeOfDeletedPost(postId, now()),

    /**
     * message.reported (a message reported in the conversations service): the report joins the queue as
     * filed there, once, whatever the number of deliveries. The conversations service checked
     * the reporter, the reason and the message; a reason this service does not know is filed
     * as "other" rather than lost.
     */
    async fileMessageReport(data: EventData<'message.reported'>): Promise<void> {
      const reason = isReportReason(data.reason) ? data.reason : 'other'
      await deps.reports.insertIfNew(messageReportOf(data, reason))
    },

    /** message.taken-down: the conversations service hid the message from both parties. */
    messageTakenDown: (messageId: string) => deps.reports.markMessageTakenDown(messageId),
  }
}

export type ReportsService = ReturnType<typeof createReportsService>
