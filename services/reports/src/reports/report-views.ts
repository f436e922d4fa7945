import type { ModerationReport, SubmittedReport } from '@marketplace/contracts/api'
import { REPORT_REASON_LABELS } from '@marketplace/contracts/marketplace'
import {
  fullNameOf,
  toPublicPersonView,
  toPublicPostView,
  type CatalogPerson,
  type CatalogPost,
} from '@marketplace/read-models/catalogs'
import type { ReportDocument } from './report-document'

const HOUR_MS = 60 * 60 * 1000

/** What the reporter gets back after submitting: their own report, nothing of moderation. */
export function submittedView(report: ReportDocument): SubmittedReport {
  return {
    _id: report._id,
    targetType: report.targetType,
    targetId: report.targetId,
    type: report.reason,
    description: report.description,
    status: report.status,
    createdAt: report.createdAt.toISOString(),
  }
}

/**
 * A report in the moderation queue: the reported content as the public sees it (null when it
 * is gone), who reported it, and its age against the promise of a review within
 * `reviewHours` (spec 2 §1).
 */
export function moderationView(
  report: ReportDocument,
  context: {
    target: CatalogPost | CatalogPerson | null | undefined
    reporter: CatalogPerson | null | undefined
    openReportsOnTarget: number
    reviewHours: number
    now: Date
  },
): ModerationReport {
  const { target, reporter, now, reviewHours } = context
  const dueAt = new Date(report.createdAt.getTime() + reviewHours * HOUR_MS)
  const content = !target
    ? null
    : report.targetType === 'post'
      ? {
          post: toPublicPostView(target as CatalogPost),
          takenDown: (target as CatalogPost).post.takenDown === true,
        }
      : {
          person: toPublicPersonView(target as CatalogPerson, now),
          takenDown: (target as CatalogPerson).takenDown,
        }
  return {
    _id: report._id,
    targetType: report.targetType,
    targetId: report.targetId,
    type: report.reason,
    reasonLabel: REPORT_REASON_LABELS[report.reason],
    description: report.description,
    status: report.status,
    reporter: { _id: report.reporterId, name: reporter ? fullNameOf(reporter) : 'Unknown User' },
    target: content,
    openReportsOnTarget: context.openReportsOnTarget,
    createdAt: report.createdAt.toISOString(),
    ageHours: Math.floor((now.getTime() - report.createdAt.getTime()) / HOUR_MS),
    reviewDueAt: dueAt.toISOString(),
    overdue: report.status === 'open' && now.getTime() > dueAt.getTime(),
    closedAt: report.closedAt?.toISOString() ?? null,
    closedBy: report.closedBy,
    action: report.action,
  }
}
