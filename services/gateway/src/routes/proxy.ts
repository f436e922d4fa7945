import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import replyFrom, { type FastifyReplyFromHooks } from '@fastify/reply-from'
import { AppError, isTracingOn } from '@marketplace/service-kit'
import { PROXY_ROUTES, type ProxyRoute, type UpstreamName } from '../upstreams'
import { upstreamRequestHeaders } from '../lib/forwarded-headers'
import { createInstancePool } from '../lib/instance-pool'
import {
  MISSING_UPSTREAM_RETRY_AFTER_SECONDS,
  isNoInstance,
  upstreamUnreachable,
} from '../lib/missing-upstream'
import { proxiedPath } from '../lib/proxy-path'
import { ReadAfterMemory, positionsIn } from '../lib/read-after-memory'
import { tunnelWebSocket, upgradeOf } from '../lib/websocket-tunnel'
import { reasonOf, upstreamErrorCounter } from '../lib/upstream-errors'
import { hasIdempotencyKey, isNaturallyIdempotent } from '../lib/safe-to-repeat'

export interface ProxyRoutesOptions {
  /** Each service's instances; several are spread over (lib/instance-pool). */
  upstreams: Partial<Record<UpstreamName, string[]>>
  upstreamTimeoutMs: number
  /**
   * Recent writes' positions, added to the same caller's next reads (lib/read-after-memory);
   * one for every prefix, each position kept under the service that answered it.
   */
  readAfter?: ReadAfterMemory
}

/** A request the gateway sends on as a read: it gets the positions of the caller's writes. */
const READ_METHODS = new Set(['GET', 'HEAD'])
const READ_AFTER = 'x-read-after'
const READ_AFTER_EVERYONE = 'x-read-after-everyone'

// The connection broke while the request was on its way: the service was there.
const CONNECTION_FAILURES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])

/** What a prefix proxies when its route names no methods (@fastify/http-proxy's list). */
const PROXIED_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS']

// A header value with a character Node refuses to send (outside HTAB, SP-~ and obs-text).
const INVALID_HEADER_VALUE = /[^\t\x20-\x7E\x80-\xFF]/
const INVALID_HEADER_VALUE_ALL = /[^\t\x20-\x7E\x80-\xFF]/g

/** Every prefix of ARCHITECTURE.md "Gateway routes": proxied when configured, 503 when not. */
export async function proxyRoutes(app: FastifyInstance, options: ProxyRoutesOptions) {
  options = { ...options, readAfter: options.readAfter ?? new ReadAfterMemory() }
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
  const readAfter = options.readAfter ?? new ReadAfterMemory()
  // Several instances: one pool per prefix spreads requests over them and sends a request
  // that could not connect to another (lib/instance-pool). One: reply-from's own client.
  const pool =
    instances.length > 1 ? createInstancePool(route.upstream, instances, scope.log) : null
  if (pool) scope.addHook('onClose', async () => pool.close())

  // A proxy that leaves bodies unparsed streams them through, unmeasured by Fastify. Reading
  // them here (this scope only) applies the body limit, with its 413, before anything is sent;
  // the bytes are then forwarded as they came, and can be sent again to another instance.
  scope.removeAllContentTypeParsers()
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))

  // @fastify/reply-from under routes of our own, as @fastify/http-proxy declared them (the
  // prefix and everything under it, '/' and '/*' in a scope with the prefix: the same routes,
  // the same metrics labels). http-proxy's per-request work is replaced by proxiedPath (the
  // same refusals, cheaper: lib/proxy-path) and the header clean-up in rewriteHeaders below;
  // its Location rewriting was the identity, each prefix being forwarded unchanged.
  await scope.register(replyFrom, {
    base: upstream,
    ...(pool ? { undici: pool.dispatcher } : {}),
    // reply-from's "fetching from remote server" and "response received" lines, two more per
    // request at info; the access line of service-kit and the error lines below remain.
    disableRequestLogging: true,
  })

  const upstreamErrors = upstreamErrorCounter(scope)
  const replyOptions: FastifyReplyFromHooks = {
    timeout: options.upstreamTimeoutMs,
    // An answer is never retried on the browser's behalf: a 503 from a service is its answer,
    // and the web client has its own retry with renewal. Only a request that reached no
    // instance goes to another (lib/instance-pool).
    retryDelay: pool ? pool.retryDelay : () => null,
    rewriteRequestHeaders: (request, headers) => {
      const rewritten = upstreamRequestHeaders(request, headers, route.upstream)
      // Tracing: the client's trace context was taken up by the gateway's own span, and
      // undici's instrumentation sends the gateway's in its place; forwarded as well, the
      // service would get two `traceparent` headers, read neither and start a trace apart.
      if (isTracingOn()) {
        delete rewritten.traceparent
        delete rewritten.tracestate
      }
      if (Buffer.isBuffer(request.body)) rewritten['content-length'] = String(request.body.length)
      if (READ_METHODS.has(request.method) && !readAfter.isEmpty) {
        const remembered = readAfter.positionsFor(route.upstream, ReadAfterMemory.keysOf(request))
        if (remembered.length > 0) {
          const sent = positionsIn(rewritten[READ_AFTER])
          rewritten[READ_AFTER] = [...new Set([...sent, ...remembered])].join(', ')
        }
      }
      return rewritten
    },
    // Services run Fastify and send none, but nothing should advertise a stack to the internet.
    // A value Node would refuse to send loses the offending characters (as http-proxy did), so
    // one bad header from a service does not fail the whole answer.
    rewriteHeaders: (headers, request) => {
      delete headers['x-powered-by']
      // A write's answer: what it changed, sent again with this caller's next reads.
      if (request && !READ_METHODS.has(request.method) && headers[READ_AFTER] !== undefined) {
        readAfter.remember(
          route.upstream,
          ReadAfterMemory.keysOf(request),
          positionsIn(headers[READ_AFTER]),
          positionsIn(headers[READ_AFTER_EVERYONE]),
        )
      }
      for (const name in headers) {
        const value: unknown = headers[name]
        if (typeof value === 'string') {
          if (INVALID_HEADER_VALUE.test(value))
            headers[name] = value.replace(INVALID_HEADER_VALUE_ALL, '')
        } else if (Array.isArray(value)) {
          headers[name] = value.map((item: unknown) =>
            typeof item === 'string' ? item.replace(INVALID_HEADER_VALUE_ALL, '') : item,
          ) as string[]
        }
      }
      return headers
    },
    onError: (reply, { error }) => {
      const failure = upstreamFailure(route.upstream, error, reply.request)
      upstreamErrors.inc({ upstream: route.upstream, reason: reasonOf(failure.code) })
      if (failure.code === 'BAD_GATEWAY')
        reply.log.error({ err: error, upstream: route.upstream }, 'proxy failed')
      reply.send(failure)
    },
  }

  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    // The path as the browser sent it, refused with 400 if it could leave the prefix.
    const dest = proxiedPath(request.url, route.prefix, upstream)
    // Handshakes reach this handler through the router (plugins/websocket-upgrades) and are
    // tunnelled, see lib/websocket-tunnel.
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
  }
  const method = route.methods ?? PROXIED_METHODS
  await scope.register(
    async (prefixed) => {
      prefixed.route({ method, url: '/', handler })
      prefixed.route({ method, url: '/*', handler })
    },
    { prefix: route.prefix },
  )
}

function searchOf(url: string): string {
  const index = url.indexOf('?')
  return index === -1 ? '' : url.slice(index)
}

/** Seconds a client waits before sending again a request whose connection broke. */
const BROKEN_RETRY_AFTER_SECONDS = 1

/** reply-from's failure, in the gateway's words; the cause stays in reply-from's log line. */
function upstreamFailure(
  name: UpstreamName,
  error: Error & { statusCode?: number },
  request: { method: string; url: string; headers: Record<string, unknown> },
): AppError {
  const cause = (error as { cause?: { code?: string } }).cause
  const code = cause?.code ?? (error as { code?: string }).code ?? ''
  if (
    error.statusCode === 504 ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return new AppError(504, 'UPSTREAM_TIMEOUT', `The ${name} service did not answer in time`)
  }
  if (isNoInstance(code)) return upstreamUnreachable(name)
  if (CONNECTION_FAILURES.has(code) || error.statusCode === 503) {
    // The instance died under the request. A repeat is harmless when the route is idempotent
    // by itself or the request carries a key its service replays the first answer for (the
    // pool has already tried the other instance): 503, send it again. Any other write may have
    // had its effect, and sending it again could do it twice: 502, as before.
    if (isNaturallyIdempotent(request.method, request.url) || hasIdempotencyKey(request.headers)) {
      return new AppError(503, 'UPSTREAM_UNREACHABLE', `The ${name} service could not be reached`, {
        'retry-after': String(BROKEN_RETRY_AFTER_SECONDS),
      })
    }
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
      { 'retry-after': String(MISSING_UPSTREAM_RETRY_AFTER_SECONDS) },
    )
  }
  const method = route.methods ?? PROXIED_METHODS
  scope.route({ method, url: route.prefix, handler })
  scope.route({ method, url: `${route.prefix}/*`, handler })
}
