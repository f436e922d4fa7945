import { randomUUID } from 'node:crypto'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyServerOptions } from 'fastify'
import pino from 'pino'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { writeRecorder } from './consistency/write-recorder'
import { refuseOperatorKeys } from './http/operator-keys'
import { errorHandlerPlugin } from './plugins/error-handler'
import { healthPlugin } from './plugins/health'
import { metricsPlugin } from './plugins/metrics'
import { openApiPlugin } from './plugins/openapi'
import { traceRoutes } from './tracing/route-spans'

/**
 * The app `createServiceApp` builds, typed by its TypeBox provider: a route plugin that takes
 * it gets its params, query and body typed from their schemas, with no casts.
 */
export type ServiceApp = Awaited<ReturnType<typeof createServiceApp>>

export interface CreateAppOptions {
  serviceName: string
  logLevel: string
  /** Bytes; services take small JSON bodies, uploads go straight to object storage. */
  bodyLimit?: number
  /** pino destination override, for tests that read the logs. */
  logger?: FastifyServerOptions['loggerInstance']
  trustProxy?: FastifyServerOptions['trustProxy']
  /** Path prefixes of the public API, for the OpenAPI document (default: every route). */
  publicPrefixes?: string[]
  /** METRICS_PORT: /metrics on a listener of its own instead of the API's port. */
  metricsPort?: number
  /** The address the metrics listener binds (the service's HOST). */
  metricsHost?: string
  /**
   * Fastify's answer to a request that arrives on an open connection while the app closes:
   * 503 (the default), or `false` to serve it and close the connection after its answer.
   */
  return503OnClosing?: boolean
}

const REQUEST_ID = /^[\w.:-]{1,128}$/

let stdout: pino.DestinationStream | undefined

/**
 * Where every app of the process writes its log lines: stdout, through pino's own
 * destination (sonic-boom), in batches. pino's default destination is asynchronous too, but
 * sends each line in a `write` of its own (through libuv's thread pool) unless one is under
 * way: at info, the gateway's one access line per request cost it a tenth of its CPU per
 * proxied request (docs/gateway-performance.md). Here lines gather until 4 KB (about 18
 * access lines) or for at most a second (`periodicFlush`, so a quiet service's lines still
 * go out), then go in one write. No line is lost at a normal exit: pino flushes this
 * destination synchronously on the process's `exit`, which `runService` reaches with
 * `process.exit` once the app is closed, as does an uncaught error; a process killed
 * outright (SIGKILL, out of memory) loses at most the last 4 KB or second of lines. One per
 * process, shared by its apps (tests build many), as stdout is one.
 */
function batchedStdout() {
  stdout ??= pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 })
  return stdout
}

/**
 * The common Fastify instance of every service: pino logs with the request id (taken from
 * x-request-id when the gateway sent a sane one, otherwise new), the id echoed back, the
 * one error shape, /healthz, /readyz and /metrics.
 *
 * One access line per request, at info, when the response is done: `request` with method,
 * url, status, ms and client ip (its reqId from the request's logger). Fastify's own two
 * lines per request ("incoming request", "request completed", each through the request
 * serializer and the redaction) are off: the gateway wrote four lines per proxied request
 * with @fastify/reply-from's two, each a synchronous write to stdout
 * (docs/gateway-performance.md). Errors keep their own lines (error handler, proxy).
 */
export async function createServiceApp(options: CreateAppOptions) {
  const app = Fastify({
    ...(options.logger
      ? { loggerInstance: options.logger }
      : {
          logger: {
            level: options.logLevel,
            stream: batchedStdout(),
            base: { service: options.serviceName },
            redact: [
              'req.headers.authorization',
              'req.headers.cookie',
              'res.headers["set-cookie"]',
            ],
          },
        }),
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    // Start-up plugins wait on real servers (connect, create indexes, join consumer
    // groups). Fastify's default of 10 s per plugin failed a clean CI run's web journeys
    // when four services created their indexes at once on a loaded 2-core machine
    // ("Plugin did not start in time: 'mongodb'"); a slow start is not a failure, and a
    // server that never answers still fails start-up through the drivers' own timeouts.
    pluginTimeout: 120_000,
    return503OnClosing: options.return503OnClosing ?? true,
    trustProxy: options.trustProxy ?? false,
    requestIdHeader: false,
    logController: new LogController({ disableRequestLogging: true }),
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

  // Set first thing (a synchronous hook, no promise per request); a proxied service's answer
  // carries the same id, which the gateway gave it.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    done()
  })
  traceRoutes(app)
  // A write's answer names what it changed (consistency/write-recorder.ts).
  writeRecorder(app)
  app.addHook('onResponse', (request, reply, done) => {
    const log = request.log as FastifyBaseLogger & { isLevelEnabled?(level: string): boolean }
    if (log.isLevelEnabled?.('info') ?? true) {
      log.info(
        {
          method: request.method,
          url: request.url,
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          ip: request.ip,
        },
        'request',
      )
    }
    done()
  })
  // First: @fastify/swagger collects the routes registered after it.
  await app.register(openApiPlugin, {
    serviceName: options.serviceName,
    publicPrefixes: options.publicPrefixes,
  })
  await app.register(errorHandlerPlugin)
  refuseOperatorKeys(app)
  await app.register(healthPlugin)
  await app.register(metricsPlugin, {
    serviceName: options.serviceName,
    ownPort: options.metricsPort,
    host: options.metricsHost,
  })
  return app
}
