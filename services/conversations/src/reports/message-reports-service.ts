import { ObjectId } from 'mongodb'
import type { MessageReported, ReportMessageBody } from '@marketplace/contracts/api'
import {
  CONVERSATION_MESSAGES,
  REPORT_EXCERPT_CONTEXT,
  REPORT_EXCERPT_TEXT_LENGTH,
  type ReportReason,
} from '@marketplace/contracts/marketplace'
import { Messages, validateReport } from '@marketplace/contracts/validation'
import { BadRequestError, ConflictError, NotFoundError, newEvent } from '@marketplace/service-kit'
import type { ConversationsService, Context } from '../conversations/conversations-service'
import { messageIdOf, parseMessageId } from '../messages/message-document'
import type { MessagesRepository } from '../messages/messages-repository'
import { displayName, type UserDirectory } from '../users/user-directory'
import { messageReportId, type MessageReportDocument } from './message-report-document'
import type { MessageReportsRepository } from './message-reports-repository'

/**
 * Reporting a message, with the post reasons: a party reports a message of the
 * other party, once. The report leaves as message.reported with a short excerpt of the
 * conversation around the message (3 before, the message, 3 after, each cut at 280
 * characters), which is all the moderators see of the conversation.
 */
export function createMessageReportsService(deps: {
  reports: MessageReportsRepository
  messages: MessagesRepository
  conversationsService: ConversationsService
  users: UserDirectory
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  return {
    /** POST /api/conversations/:id/messages/:messageId/report */
    async report(
      conversationId: string,
      messageId: string,
      body: ReportMessageBody,
      context: Context,
    ): Promise<MessageReported> {
      const { conversation } = await deps.conversationsService.partyConversation(
        conversationId,
        context.callerId,
      )
      const problem = validateReport({
        type: body.type ?? null,
        description: body.description ?? null,
      })
      if (problem) throw new BadRequestError(problem, 'INVALID_REPORT')
      const target = parseMessageId(messageId)
      const message =
        target && target.conversationId === conversation._id
          ? await deps.messages.find(conversation._id, target.seq)
          : null
      if (!target || !message) {
        throw new NotFoundError(CONVERSATION_MESSAGES.messageNotFound, 'MESSAGE_NOT_FOUND')
      }
      if (message.system) {
        throw new BadRequestError(CONVERSATION_MESSAGES.systemLineNotReportable, 'SYSTEM_LINE')
      }
      if (message.senderId === context.callerId) {
        throw new BadRequestError(Messages.reports.cannotReportYourselfServer, 'OWN_MESSAGE')
      }

      const around = await deps.messages.range(
        conversation._id,
        target.seq - REPORT_EXCERPT_CONTEXT,
        target.seq + REPORT_EXCERPT_CONTEXT,
      )
      const cards = await deps.users.find([conversation.requesterId, conversation.otherId])
      const nameOf = (senderId: string) =>
        displayName(
          cards.get(senderId),
          senderId === conversation.requesterId
            ? conversation.names.requester
            : conversation.names.other,
        )
      const createdAt = now()
      const report: MessageReportDocument = {
        _id: messageReportId(messageId, context.callerId),
        reportId: new ObjectId().toHexString(),
        conversationId: conversation._id,
        messageId,
        reporterId: context.callerId,
        // validateReport admitted only the post reasons.
        reason: body.type as ReportReason,
        description: (body.description ?? '').trim(),
        createdAt,
      }
      const stored = await deps.reports.insert(report, [
        newEvent('message.reported', {
          aggregateId: conversation._id,
          actorId: context.callerId,
          requestId: context.requestId,
          data: {
            reportId: report.reportId,
            messageId,
            conversationId: conversation._id,
            reporterId: context.callerId,
            senderId: message.senderId,
            reason: report.reason,
            description: report.description || null,
            excerpt: around.map((entry) => ({
              messageId: messageIdOf(conversation._id, entry.seq),
              senderName: nameOf(entry.senderId),
              text: (entry.takenDown ? '' : entry.text).slice(0, REPORT_EXCERPT_TEXT_LENGTH),
              sentAt: entry.sentAt.toISOString(),
            })),
            createdAt: createdAt.toISOString(),
          },
        }),
      ])
      if (!stored)
        throw new ConflictError(CONVERSATION_MESSAGES.alreadyReported, 'ALREADY_REPORTED')
      return { reportId: report.reportId, message: CONVERSATION_MESSAGES.reported }
    },

    forgetReporter: (userId: string) => deps.reports.forgetReporter(userId),
  }
}

export type MessageReportsService = ReturnType<typeof createMessageReportsService>
