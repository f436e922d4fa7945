import type { FastifyError, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, type Registry } from 'prom-client'
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../database-errors'
import { DEPENDENCY_RETRY_AFTER_SECONDS, isDependencyUnreachable } from '../dependency-errors'
import { AppError } from '../errors'

/**
 * One error shape for every service: `{ message, code }`. Validation failures name the field
 * in words a person understands; unexpected errors are logged with their stack and answered
 * with a plain 500 so no internals leave the server. A database that cannot be reached is
 * not the request's fault nor a bug: 503 with Retry-After, so clients and the web app's
 * retry wait and try again (the driver gives up on finding the server within a second).
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        // A refusal by one of this service's own limits (a proxied 429 never comes here).
        if (error.statusCode === 429 && app.hasDecorator('metrics')) {
          refusalCounter(app.metrics).inc({ route: request.routeOptions.url ?? 'unmatched' })
        }
        return reply
          .code(error.statusCode)
          .headers(error.headers)
          .send({ message: error.message, code: error.code })
      }
      if ((error as FastifyError).validation) {
        const first = (error as FastifyError).validation?.[0]
        const field =
          first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') ||
          (first?.params as { missingProperty?: string } | undefined)?.missingProperty
        const message = field ? `Invalid ${field}: ${first?.message}` : error.message
        return reply.code(400).send({ message, code: 'VALIDATION_FAILED' })
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'database unavailable')
        return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({
          message: 'The service is briefly unavailable. Please try again in a few seconds.',
          code: 'SERVICE_UNAVAILABLE',
        })
      }
      // Object storage, mail or a socket the database had closed: the same answer.
      if (isDependencyUnreachable(error)) {
        request.log.warn({ err: error }, 'a server this service depends on is unreachable')
        return reply.code(503).header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS)).send({
          message: 'The service is briefly unavailable. Please try again in a few seconds.',
          code: 'SERVICE_UNAVAILABLE',
        })
      }
      const status = (error as FastifyError).statusCode ?? 500
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed')
        return reply
          .code(status)
          .send({ message: 'Something went wrong on our side', code: 'INTERNAL' })
      }
      // Framework 4xx (body too large, bad JSON, unsupported media type): their text is safe.
      return reply.code(status).send({ message: error.message, code: error.code ?? 'BAD_REQUEST' })
    })
    app.setNotFoundHandler((request, reply) =>
      reply.code(404).send({
        message: `No route for ${request.method} ${request.url.split('?')[0]}`,
        code: 'NOT_FOUND',
      }),
    )
  },
  { name: 'error-handler' },
)

/** `rate_limit_refusals_total{route}`: requests this service answered 429 by its own limits. */
function refusalCounter(registry: Registry): Counter<'route'> {
  const existing = registry.getSingleMetric('rate_limit_refusals_total')
  if (existing) return existing as Counter<'route'>
  return new Counter({
    name: 'rate_limit_refusals_total',
    help: "Requests refused with 429 by this service's own rate limits, by route",
    labelNames: ['route'],
    registers: [registry],
  })
}
