import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import httpProxy from '@fastify/http-proxy'
import { AppError } from '@marketplace/service-kit'
import { PROXY_ROUTES, type ProxyRoute, type UpstreamName } from '../upstreams'
import { upstreamRequestHeaders } from '../lib/forwarded-headers'
import { tunnelWebSocket, upgradeOf } from '../lib/websocket-tunnel'

export interface ProxyRoutesOptions {
  upstreams: Partial<Record<UpstreamName, string>>
  upstreamTimeoutMs: number
}

/** A body already read (and size-checked) by Fastify, handed to reply-from as a stream. */
class BufferedBody extends Readable {
  constructor(
    readonly byteLength: number,
    chunk: Buffer,
  ) {
    super()
    this.push(chunk)
    this.push(null)
  }

  override _read(): void {}
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
    const upstream = options.upstreams[route.upstream]
    if (upstream) {
      await app.register(upstreamProxy, { route, upstream, ...options })
    } else {
      await app.register(unavailableUpstream, { route })
    }
  }
}

async function upstreamProxy(
  scope: FastifyInstance,
  options: ProxyRoutesOptions & { route: ProxyRoute; upstream: string },
) {
  const { route, upstream } = options

  // http-proxy passes bodies through as raw streams, which Fastify does not measure. Reading
  // them here (this scope only) applies the body limit, with its 413, before anything is sent.
  scope.removeAllContentTypeParsers()
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    const buffer = body as Buffer
    done(null, new BufferedBody(buffer.length, buffer))
  })

  await scope.register(httpProxy, {
    upstream,
    prefix: route.prefix,
    rewritePrefix: route.prefix,
    proxyPayloads: false,
    // reply-from's "fetching from remote server" and "response received" lines, two more per
    // request at info; the access line of service-kit and the error lines below remain.
    disableRequestLogging: true,
    ...(route.methods ? { httpMethods: route.methods } : {}),
    replyOptions: {
      timeout: options.upstreamTimeoutMs,
      // Never retry on the browser's behalf: a 503 from a service is its answer, and the web
      // client has its own retry with renewal.
      retryDelay: () => null,
      rewriteRequestHeaders: (request, headers) => {
        const rewritten = upstreamRequestHeaders(request, headers, route.upstream)
        if (request.body instanceof BufferedBody)
          rewritten['content-length'] = String(request.body.byteLength)
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
    // Handshakes reach this handler through the router (plugins/websocket-upgrades) and are
    // tunnelled; http-proxy's own `websocket` mode is not used, see lib/websocket-tunnel.
    ...(route.websocket
      ? {
          handler: (request, reply, dest, replyOptions) => {
            if (!upgradeOf(request.raw)) return reply.from(dest, replyOptions)
            return tunnelWebSocket(request, reply, {
              upstreamName: route.upstream,
              target: new URL(`${dest}${searchOf(request.url)}`, upstream),
              timeoutMs: options.upstreamTimeoutMs,
            })
          },
        }
      : {}),
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
