import type { FastifyRequest } from 'fastify'
import {
  ModerationQueueSchema,
  ModerationReportSchema,
  ReportIdParamsSchema,
  ReportQueueQuerySchema,
  ResolveReportBodySchema,
  SECURED,
  errorResponses,
} from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import { BadRequestError, callerOf, integerParam } from '@marketplace/service-kit'
import { exactTypes } from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import { assertModerator, type ReportsService } from './reports-service'

const tags = ['reports']

/**
 * The moderation queue (reports are reviewed within 24 hours; the platform may
 * remove content). Administrators and editors only: GET /api/reports?status=open|closed&page,
 * GET /api/reports/{id}, PATCH /api/reports/{id} {action: dismiss | take-down}.
 */
export async function moderationRoutes(
  app: ServiceApp,
  deps: { service: ReportsService; pageSize: number },
) {
  // On request, before the query or body is read: whoever may not moderate learns nothing
  // from a 400 about what they sent.
  app.addHook('onRequest', app.authenticate)
  app.addHook('onRequest', async (request) => assertModerator(callerOf(request)))
  const context = (request: FastifyRequest) => ({
    callerId: callerOf(request).userId,
    requestId: request.id,
  })

  app.get(
    '/api/reports',
    {
      schema: {
        tags,
        summary: 'The moderation queue: open reports oldest first, or closed ones',
        security: SECURED,
        querystring: ReportQueueQuerySchema,
        response: { 200: ModerationQueueSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const status = request.query.status ?? 'open'
      if (status !== 'open' && status !== 'closed') {
        throw new BadRequestError(Messages.reports.invalidStatus, 'INVALID_STATUS')
      }
      const page = integerParam(request.query.page, 'page', { min: 1, max: 10_000, fallback: 1 })
      return deps.service.queue(status, page, deps.pageSize)
    },
  )

  app.get(
    '/api/reports/:reportId',
    {
      schema: {
        tags,
        summary: 'One report as the queue shows it',
        security: SECURED,
        params: ReportIdParamsSchema,
        response: { 200: ModerationReportSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => deps.service.details(request.params.reportId),
  )

  app.patch(
    '/api/reports/:reportId',
    {
      schema: {
        tags,
        summary: 'Dismiss a report, or take its content down (closing every open report of it)',
        security: SECURED,
        params: ReportIdParamsSchema,
        body: ResolveReportBodySchema,
        response: { 200: ModerationReportSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
      validatorCompiler: exactTypes,
    },
    async (request) =>
      deps.service.resolve(request.params.reportId, request.body, context(request)),
  )
}
