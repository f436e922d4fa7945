import type { ReportReason } from '@marketplace/contracts/marketplace'
import type { OutboxFields } from '@marketplace/service-kit'

export const REPORTS_COLLECTION = 'reports'

/** Posts and people are reported here; messages in the conversations service, which tells us. */
export type ReportTargetType = 'post' | 'person' | 'message'

/** A message of the excerpt, as message.reported carried it. */
export interface ExcerptMessageSnapshot {
  messageId: string
  senderName: string
  text: string
  sentAt: Date
}

/**
 * What a message report keeps of its conversation: the messages around the reported one at
 * the time of the report. The reports service reads no other service's data, so this copy is
 * all the queue shows; it goes with the report (user.deleted of either party).
 */
export interface ReportedMessageSnapshot {
  conversationId: string
  excerpt: ExcerptMessageSnapshot[]
  /** message.taken-down arrived: the conversations service hid it from both parties. */
  takenDown: boolean
}

/**
 * How a report was closed: by a moderator (dismiss, or take the content down), or because
 * its post was deleted by its owner meanwhile (nothing left to review).
 */
export type ReportAction = 'dismiss' | 'take-down' | 'target-deleted'

/** One user's report of one post, person or message. */
export interface ReportDocument extends OutboxFields {
  _id: string
  reporterId: string
  targetType: ReportTargetType
  targetId: string
  /** The post's owner, the person, or the message's sender: user.deleted of that user removes the report. */
  targetOwnerId: string
  reason: ReportReason
  description: string
  status: 'open' | 'closed'
  createdAt: Date
  closedAt: Date | null
  /** The moderator who closed it; null when closed because the post was deleted. */
  closedBy: string | null
  action: ReportAction | null
  /** Message reports only. */
  message?: ReportedMessageSnapshot
}
