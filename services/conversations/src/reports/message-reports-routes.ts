import {
  MessageParamsSchema,
  MessageReportedSchema,
  ReportMessageBodySchema,
  SECURED,
  errorResponses,
} from '@marketplace/contracts/api'
import { callerOf, exactTypes, type ServiceApp } from '@marketplace/service-kit'
import type { MessageReportsService } from './message-reports-service'

/**
 * Reporting a message of the other party: 201 once; 400 "Please select a
 * reason for reporting" or "Cannot report yourself"; 404 for a conversation the caller is not
 * in or a message not in it; 409 for a second report of the same message by the same person.
 */
export async function messageReportsRoutes(
  app: ServiceApp,
  deps: { service: MessageReportsService },
) {
  app.addHook('onRequest', app.authenticate)

  app.post(
    '/api/conversations/:id/messages/:messageId/report',
    {
      schema: {
        tags: ['conversations'],
        summary: 'Report a message of the other party to the moderators (once per message)',
        security: SECURED,
        params: MessageParamsSchema,
        body: ReportMessageBodySchema,
        response: { 201: MessageReportedSchema, ...errorResponses(400, 401, 404, 409) },
      },
      validatorCompiler: exactTypes,
    },
    async (request, reply) => {
      const reported = await deps.service.report(
        request.params.id,
        request.params.messageId,
        request.body,
        { callerId: callerOf(request).userId, requestId: request.id },
      )
      return reply.code(201).send(reported)
    },
  )
}
