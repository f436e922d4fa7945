import type {
  ModerationReport,
  ReportedMessageView,
  SubmittedReport,
} from '@marketplace/contracts/api'
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
  // Only posts and people are reported through this service's routes.
  if (report.targetType === 'message') throw new Error('a message report is filed elsewhere')
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
 * `reviewHours`.
 */
export function moderationView(
  report: ReportDocument,
  context: {
    target: CatalogPost | CatalogPerson | null | undefined
    /** A message report's sender, as the people catalog knows them. */
    sender?: CatalogPerson | null | undefined
    reporter: CatalogPerson | null | undefined
    openReportsOnTarget: number
    reviewHours: number
    now: Date
  },
): ModerationReport {
  const { reporter, now, reviewHours } = context
  const dueAt = new Date(report.createdAt.getTime() + reviewHours * HOUR_MS)
  return {
    _id: report._id,
    targetType: report.targetType,
    targetId: report.targetId,
    type: report.reason,
    reasonLabel: REPORT_REASON_LABELS[report.reason],
    description: report.description,
    status: report.status,
    reporter: { _id: report.reporterId, name: reporter ? fullNameOf(reporter) : 'Unknown User' },
    target: reportedContent(report, context),
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

/** What was reported: a post or a person as the public sees them now, a message as it was. */
function reportedContent(
  report: ReportDocument,
  context: Pick<Parameters<typeof moderationView>[1], 'target' | 'sender' | 'now'>,
): ModerationReport['target'] {
  const { target } = context
  if (report.targetType === 'message') {
    return report.message
      ? { message: messageView(report, context.sender), takenDown: report.message.takenDown }
      : null
  }
  if (!target) return null
  return report.targetType === 'post'
    ? {
        post: toPublicPostView(target as CatalogPost),
        takenDown: (target as CatalogPost).post.takenDown === true,
      }
    : {
        person: toPublicPersonView(target as CatalogPerson, context.now),
        takenDown: (target as CatalogPerson).takenDown,
      }
}

/**
 * A reported message as a moderator sees it: the excerpt the report carried, oldest first,
 * the reported message marked, and its sender by their current name (the excerpt's name
 * when the people catalog does not know them).
 */
function messageView(
  report: ReportDocument,
  sender: CatalogPerson | null | undefined,
): ReportedMessageView {
  const { conversationId, excerpt } = report.message!
  const reported = excerpt.find((message) => message.messageId === report.targetId)
  return {
    _id: report.targetId,
    conversationId,
    sender: {
      _id: report.targetOwnerId,
      name: sender ? fullNameOf(sender) : (reported?.senderName ?? 'Unknown User'),
    },
    excerpt: excerpt.map((message) => ({
      _id: message.messageId,
      senderName: message.senderName,
      text: message.text,
      sentAt: message.sentAt.toISOString(),
      reported: message.messageId === report.targetId,
    })),
  }
}
