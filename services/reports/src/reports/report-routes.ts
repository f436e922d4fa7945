import type { FastifyRequest } from 'fastify'
import {
  ReportPersonBodySchema,
  ReportPostBodySchema,
  SECURED,
  SubmittedReportSchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { callerOf } from '@marketplace/service-kit'
import { exactTypes } from '@marketplace/service-kit'
import type { ServiceApp } from '@marketplace/service-kit'
import { submittedView } from './report-views'
import type { ReportsService } from './reports-service'

const tags = ['reports']

/**
 * Reporting: any signed-in user reports a post or a person once. Answers 201
 * with the report; 400 with the spec's text for a missing reason or one's own content; 409
 * "You have already submitted a report for this post" (or person).
 */
export async function reportRoutes(app: ServiceApp, deps: { service: ReportsService }) {
  // On request, before the body is read: a guest gets 401 whatever they send.
  app.addHook('onRequest', app.authenticate)
  const context = (request: FastifyRequest) => ({
    callerId: callerOf(request).userId,
    requestId: request.id,
  })

  app.post(
    '/api/reports/posts',
    {
      schema: {
        tags,
        summary: 'Report a post (once per user and post)',
        security: SECURED,
        body: ReportPostBodySchema,
        response: { 201: SubmittedReportSchema, ...errorResponses(400, 401, 404, 409) },
      },
      validatorCompiler: exactTypes,
    },
    async (request, reply) => {
      const report = await deps.service.reportPost(request.body, context(request))
      return reply.code(201).send(submittedView(report))
    },
  )

  app.post(
    '/api/reports/people',
    {
      schema: {
        tags,
        summary: 'Report a person (once per user and person)',
        security: SECURED,
        body: ReportPersonBodySchema,
        response: { 201: SubmittedReportSchema, ...errorResponses(400, 401, 404, 409) },
      },
      validatorCompiler: exactTypes,
    },
    async (request, reply) => {
      const report = await deps.service.reportPerson(request.body, context(request))
      return reply.code(201).send(submittedView(report))
    },
  )
}
