import type { ReportReason } from '@marketplace/contracts/marketplace'
import type { OutboxFields } from '@marketplace/service-kit'

export const REPORTS_COLLECTION = 'reports'

export type ReportTargetType = 'post' | 'person'

/**
 * How a report was closed: by a moderator (dismiss, or take the content down), or because
 * its post was deleted by its owner meanwhile (nothing left to review).
 */
export type ReportAction = 'dismiss' | 'take-down' | 'target-deleted'

/** One user's report of one post or person (spec 1 §3, §5). */
export interface ReportDocument extends OutboxFields {
  _id: string
  reporterId: string
  targetType: ReportTargetType
  targetId: string
  /** The post's owner, or the person: user.deleted of that user removes the report. */
  targetOwnerId: string
  reason: ReportReason
  description: string
  status: 'open' | 'closed'
  createdAt: Date
  closedAt: Date | null
  /** The moderator who closed it; null when closed because the post was deleted. */
  closedBy: string | null
  action: ReportAction | null
}
