import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import { Messages } from '@marketplace/contracts/validation'
import {
  BadRequestError,
  LooseBody,
  callerOf,
  integerParam,
  type LooseBodyValue,
} from '@marketplace/service-kit'
import { assertModerator, type ReportsService } from '../reports/reports-service'

const QueueQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 16 })),
  page: Type.Optional(Type.String({ maxLength: 16 })),
})
const ReportParams = Type.Object({ reportId: Type.String({ maxLength: 64 }) })

/**
 * The moderation queue (spec 2 §1: reports are reviewed within 24 hours; the platform may
 * remove content). Administrators and editors only: GET /api/reports?status=open|closed&page,
 * GET /api/reports/{id}, PATCH /api/reports/{id} {action: dismiss | take-down}.
 */
export async function moderationRoutes(
  app: FastifyInstance,
  deps: { service: ReportsService; pageSize: number },
) {
  app.addHook('preHandler', app.authenticate)
  app.addHook('preHandler', async (request) => assertModerator(callerOf(request)))
  const context = (request: FastifyRequest) => ({
    callerId: callerOf(request).userId,
    requestId: request.id,
  })

  app.get('/api/reports', { schema: { querystring: QueueQuery } }, async (request) => {
    const query = request.query as { status?: string; page?: string }
    const status = query.status ?? 'open'
    if (status !== 'open' && status !== 'closed') {
      throw new BadRequestError(Messages.reports.invalidStatus, 'INVALID_STATUS')
    }
    const page = integerParam(query.page, 'page', { min: 1, max: 10_000, fallback: 1 })
    return deps.service.queue(status, page, deps.pageSize)
  })

  app.get('/api/reports/:reportId', { schema: { params: ReportParams } }, async (request) => {
    const { reportId } = request.params as { reportId: string }
    return deps.service.details(reportId)
  })

  app.patch(
    '/api/reports/:reportId',
    { schema: { params: ReportParams, body: LooseBody } },
    async (request) => {
      const { reportId } = request.params as { reportId: string }
      return deps.service.resolve(reportId, request.body as LooseBodyValue, context(request))
    },
  )
}
