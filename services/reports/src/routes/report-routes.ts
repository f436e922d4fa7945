import type { FastifyInstance, FastifyRequest } from 'fastify'
import { LooseBody, callerOf, type LooseBodyValue } from '@marketplace/service-kit'
import { submittedView } from '../reports/report-views'
import type { ReportsService } from '../reports/reports-service'

/**
 * Reporting (spec 1 §7): any signed-in user reports a post or a person once. Answers 201
 * with the report; 400 with the spec's text for a missing reason or one's own content; 409
 * "You have already submitted a report for this post" (or person).
 */
export async function reportRoutes(app: FastifyInstance, deps: { service: ReportsService }) {
  app.addHook('preHandler', app.authenticate)
  const context = (request: FastifyRequest) => ({
    callerId: callerOf(request).userId,
    requestId: request.id,
  })

  app.post('/api/reports/posts', { schema: { body: LooseBody } }, async (request, reply) => {
    const report = await deps.service.reportPost(request.body as LooseBodyValue, context(request))
    return reply.code(201).send(submittedView(report))
  })

  app.post('/api/reports/people', { schema: { body: LooseBody } }, async (request, reply) => {
    const report = await deps.service.reportPerson(request.body as LooseBodyValue, context(request))
    return reply.code(201).send(submittedView(report))
  })
}
