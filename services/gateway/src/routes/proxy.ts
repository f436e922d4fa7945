import type { FastifyInstance } from 'fastify'
import httpProxy from '@fastify/http-proxy'
import { AppError } from '@marketplace/service-kit'
import { PROXY_ROUTES, type ProxyRoute, type UpstreamName } from '../upstreams'
import { upstreamRequestHeaders } from '../lib/forwarded-headers'
import { createInstancePool } from '../lib/instance-pool'
import { tunnelWebSocket, upgradeOf } from '../lib/websocket-tunnel'

export interface ProxyRoutesOptions {
  /** Each service's instances; several are spread over (lib/instance-pool). */
  upstreams: Partial<Record<UpstreamName, string[]>>
  upstreamTimeoutMs: number
}

const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
])

/** Every prefix of ARCHITECTURE.md "Gateway routes": proxied when configured, 503 when not. */
export async function proxyRoutes(app: FastifyInstance, options: ProxyRoutesOptions) {
  for (const route of PROXY_ROUTES) {
    const instances = options.upstreams[route.upstream]
    if (instances?.length) {
      await app.register(upstreamProxy, { route, instances, ...options })
    } else {
      await app.register(unavailableUpstream, { route })
    }
  }
}

async function upstreamProxy(
  scope: FastifyInstance,
  options: ProxyRoutesOptions & { route: ProxyRoute; instances: string[] },
) {
  const { route, instances } = options
  const upstream = instances[0]!
  // Several instances: one pool per prefix spreads requests over them and sends a request
  // that could not connect to another (lib/instance-pool). One: reply-from's own client.
  const pool =
    instances.length > 1 ? createInstancePool(route.upstream, instances, scope.log) : null
  if (pool) scope.addHook('onClose', async () => pool.close())

  // http-proxy passes bodies through as raw streams, which Fastify does not measure. Reading
  // them here (this scope only) applies the body limit, with its 413, before anything is sent;
  // the bytes are then forwarded as they came, and can be sent again to another instance.
  scope.removeAllContentTypeParsers()
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))

  await scope.register(httpProxy, {
    upstream,
    ...(pool ? { undici: pool.dispatcher } : {}),
    prefix: route.prefix,
    rewritePrefix: route.prefix,
    proxyPayloads: false,
    // reply-from's "fetching from remote server" and "response received" lines, two more per
    // request at info; the access line of service-kit and the error lines below remain.
    disableRequestLogging: true,
    ...(route.methods ? { httpMethods: route.methods } : {}),
    replyOptions: {
      timeout: options.upstreamTimeoutMs,
      // An answer is never retried on the browser's behalf: a 503 from a service is its answer,
      // and the web client has its own retry with renewal. Only a request that reached no
      // instance goes to another (lib/instance-pool).
      retryDelay: pool ? pool.retryDelay : () => null,
      rewriteRequestHeaders: (request, headers) => {
        const rewritten = upstreamRequestHeaders(request, headers, route.upstream)
        if (Buffer.isBuffer(request.body)) rewritten['content-length'] = String(request.body.length)
        return rewritten
      },
      // Services run Fastify and send none, but nothing should advertise a stack to the internet.
      rewriteHeaders: (headers) => {
        delete headers['x-powered-by']
        return headers
      },
      onError: (reply, { error }) => {
        const failure = upstreamFailure(route.upstream, error)
        if (failure.code === 'BAD_GATEWAY')
          reply.log.error({ err: error, upstream: route.upstream }, 'proxy failed')
        reply.send(failure)
      },
    },
    handler: (request, reply, dest, replyOptions) => {
      // Handshakes reach this handler through the router (plugins/websocket-upgrades) and are
      // tunnelled; http-proxy's own `websocket` mode is not used, see lib/websocket-tunnel.
      if (route.websocket && upgradeOf(request.raw)) {
        return tunnelWebSocket(request, reply, {
          upstreamName: route.upstream,
          target: new URL(`${dest}${searchOf(request.url)}`, upstream),
          timeoutMs: options.upstreamTimeoutMs,
        })
      }
      // The body as bytes with its own content type (reply-from would re-encode a JSON one).
      const body = request.body
      if (!Buffer.isBuffer(body) || request.method === 'GET' || request.method === 'HEAD') {
        return reply.from(dest, replyOptions)
      }
      return reply.from(dest, {
        ...replyOptions,
        body,
        contentType: request.headers['content-type'] ?? 'application/octet-stream',
      })
    },
  })
}

function searchOf(url: string): string {
  const index = url.indexOf('?')
  return index === -1 ? '' : url.slice(index)
}

/** reply-from's failure, in the gateway's words; the cause stays in reply-from's log line. */
function upstreamFailure(name: UpstreamName, error: Error & { statusCode?: number }): AppError {
  const cause = (error as { cause?: { code?: string } }).cause
  const code = cause?.code ?? (error as { code?: string }).code ?? ''
  if (
    error.statusCode === 504 ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return new AppError(504, 'UPSTREAM_TIMEOUT', `The ${name} service did not answer in time`)
  }
  if (CONNECTION_FAILURES.has(code) || error.statusCode === 503) {
    return new AppError(502, 'UPSTREAM_UNREACHABLE', `The ${name} service could not be reached`)
  }
  return new AppError(502, 'BAD_GATEWAY', `The ${name} service gave no usable answer`)
}

async function unavailableUpstream(scope: FastifyInstance, { route }: { route: ProxyRoute }) {
  const handler = async () => {
    throw new AppError(
      503,
      'UPSTREAM_UNAVAILABLE',
      `The ${route.upstream} service is not available`,
    )
  }
  const method = route.methods ?? ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS']
  scope.route({ method, url: route.prefix, handler })
  scope.route({ method, url: `${route.prefix}/*`, handler })
}
