import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { errorHandlerPlugin } from './plugins/error-handler'
import { healthPlugin } from './plugins/health'
import { metricsPlugin } from './plugins/metrics'

export type ServiceApp = FastifyInstance & { withTypeProvider(): ServiceApp }

export interface CreateAppOptions {
  serviceName: string
  logLevel: string
  /** Bytes; services take small JSON bodies, uploads go straight to object storage. */
  bodyLimit?: number
  /** pino destination override, for tests that read the logs. */
  logger?: FastifyServerOptions['loggerInstance']
  trustProxy?: FastifyServerOptions['trustProxy']
}

const REQUEST_ID = /^[\w.:-]{1,128}$/

/**
 * The common Fastify instance of every service: pino logs with the request id (taken from
 * x-request-id when the gateway sent a sane one, otherwise new), the id echoed back, the
 * one error shape, /healthz, /readyz and /metrics.
 */
export async function createServiceApp(options: CreateAppOptions) {
  const app = Fastify({
    ...(options.logger
      ? { loggerInstance: options.logger }
      : {
          logger: {
            level: options.logLevel,
            base: { service: options.serviceName },
            redact: [
              'req.headers.authorization',
              'req.headers.cookie',
              'res.headers["set-cookie"]',
            ],
          },
        }),
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    trustProxy: options.trustProxy ?? false,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id']
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    },
    ajv: {
      customOptions: {
        removeAdditional: true,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: false,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  await app.register(errorHandlerPlugin)
  await app.register(healthPlugin)
  await app.register(metricsPlugin, { serviceName: options.serviceName })
  return app
}
