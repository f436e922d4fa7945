import type { ReportReason } from '@marketplace/contracts/marketplace'
import type { OutboxFields } from '@marketplace/service-kit'

export const MESSAGE_REPORTS_COLLECTION = 'message_reports'

/**
 * A party's report of one message of the other party. The id is made of the message and the
 * reporter, so a second report of the same message by the same person names the same
 * document and the database refuses it (the 409), even when two are sent at once. The
 * moderation queue lives in the reports service, which reads message.reported.
 */
export interface MessageReportDocument extends OutboxFields {
  /** `<messageId>|<reporterId>` */
  _id: string
  reportId: string
  conversationId: string
  messageId: string
  reporterId: string
  reason: ReportReason
  description: string
  createdAt: Date
}

export const messageReportId = (messageId: string, reporterId: string) =>
  `${messageId}|${reporterId}`
