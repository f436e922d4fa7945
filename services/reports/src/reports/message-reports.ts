import { createHash } from 'node:crypto'
import type { EventData } from '@marketplace/contracts/events'
import type { ReportReason } from '@marketplace/contracts/marketplace'
import type { ReportDocument } from './report-document'

/** The report ids the routes accept (reports-service ID). */
const ROUTABLE_ID = /^[0-9a-zA-Z_-]{1,64}$/

/**
 * The conversations service names the report; its id is kept so both services speak of the
 * same report. An id the routes could not address is replaced by a digest of it: the same id
 * always gives the same digest, so a replayed event still finds the report it filed.
 */
export function messageReportIdOf(reportId: string): string {
  return ROUTABLE_ID.test(reportId)
    ? reportId
    : createHash('sha256').update(reportId).digest('hex').slice(0, 24)
}

/**
 * A message report as the queue stores it: the reported message is the target,
 * its sender the target's owner (their purge removes the report with the excerpt), and the
 * excerpt the conversation around it as the parties saw it when it was reported.
 */
export function messageReportOf(
  data: EventData<'message.reported'>,
  reason: ReportReason,
): ReportDocument {
  return {
    _id: messageReportIdOf(data.reportId),
    reporterId: data.reporterId,
    targetType: 'message',
    targetId: data.messageId,
    targetOwnerId: data.senderId,
    reason,
    description: (data.description ?? '').trim(),
    status: 'open',
    createdAt: new Date(data.createdAt),
    closedAt: null,
    closedBy: null,
    action: null,
    message: {
      conversationId: data.conversationId,
      excerpt: data.excerpt
        .map((message) => ({
          messageId: message.messageId,
          senderName: message.senderName,
          text: message.text,
          sentAt: new Date(message.sentAt),
        }))
        .sort((a, b) => a.sentAt.getTime() - b.sentAt.getTime()),
      takenDown: false,
    },
  }
}
