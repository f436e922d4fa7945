import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import https from 'node:https'
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '@marketplace/service-kit'
import { upstreamRequestHeaders } from '../lib/forwarded-headers'
import { isNoInstance, upstreamUnreachable } from '../lib/missing-upstream'
import { proxiedPath } from '../lib/proxy-path'
import { tunnelWebSocket, upgradeOf } from '../lib/websocket-tunnel'

export const SOCKET_IO_PREFIX = '/socket.io'

export interface SocketIoRoutesOptions {
  /** Every notifications instance, by a base URL that reaches that instance alone. */
  instances: string[]
  upstreamTimeoutMs: number
}

// Engine.IO answers 400 `{"code":1,"message":"Session ID unknown"}` to a session it does not hold.
const UNKNOWN_SID = 1
// A session idles out after pingInterval + pingTimeout (45 s by default); its entry soon after.
const SESSION_IDLE_MS = 2 * 60_000
const RESPONSE_HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade'])

interface UpstreamAnswer {
  status: number
  headers: IncomingHttpHeaders
  body: IncomingMessage
}

/**
 * Which instance holds each Engine.IO session (the `sid` query parameter). HTTP long-polling
 * sends every request of one session separately, and only the instance that opened it knows
 * it, so each must reach that instance; a WebSocket is one connection and needs no help.
 * The instance is learnt from the handshake's answer; a session opened through another
 * gateway replica, or before a restart, is found by asking each instance about it.
 */
function createSessionTable(
  instances: URL[],
  probe: (instance: URL, sid: string) => Promise<boolean>,
) {
  const owners = new Map<string, { instance: URL; seenAt: number }>()
  let next = 0

  return {
    /**
     * New handshakes take the instances in turn: the one whose turn it is first, then the
     * others, for when it cannot be reached.
     */
    nextInstances(): URL[] {
      const first = next
      next = (next + 1) % instances.length
      return instances.map((_, i) => instances[(first + i) % instances.length]!)
    },
    remember(sid: string, instance: URL) {
      owners.set(sid, { instance, seenAt: Date.now() })
    },
    async ownerOf(sid: string): Promise<URL | null> {
      const known = owners.get(sid)
      if (known) {
        known.seenAt = Date.now()
        return known.instance
      }
      if (instances.length === 1) return instances[0]!
      const answers = await Promise.all(instances.map((instance) => probe(instance, sid)))
      const owner = instances[answers.indexOf(true)] ?? null
      if (owner) owners.set(sid, { instance: owner, seenAt: Date.now() })
      return owner
    },
    forgetIdle() {
      const before = Date.now() - SESSION_IDLE_MS
      for (const [sid, entry] of owners) if (entry.seenAt < before) owners.delete(sid)
    },
    size: () => owners.size,
  }
}

/**
 * /socket.io: the live connection, served by the notifications instances. Both transports
 * (ARCHITECTURE.md "Live notifications"): WebSocket handshakes are tunnelled, long-polling
 * requests forwarded, each request of a session to the instance that holds it; new sessions
 * spread over the instances in turn.
 */
export async function socketIoRoutes(scope: FastifyInstance, options: SocketIoRoutesOptions) {
  const instances = options.instances.map((url) => new URL(url))
  if (instances.length === 0) {
    const unavailable = async () => {
      throw new AppError(503, 'UPSTREAM_UNAVAILABLE', 'The notifications service is not available')
    }
    scope.route({ method: ['GET', 'POST'], url: SOCKET_IO_PREFIX, handler: unavailable })
    scope.route({ method: ['GET', 'POST'], url: `${SOCKET_IO_PREFIX}/*`, handler: unavailable })
    return
  }
  const sessions = createSessionTable(instances, (instance, sid) =>
    holdsSession(instance, sid, options.upstreamTimeoutMs),
  )
  const sweep = setInterval(() => sessions.forgetIdle(), SESSION_IDLE_MS)
  sweep.unref()
  scope.addHook('onClose', async () => clearInterval(sweep))

  // Polling bodies are Engine.IO payloads, passed on byte for byte (the body limit applies).
  scope.removeAllContentTypeParsers()
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))

  const unreachable = () =>
    new AppError(502, 'UPSTREAM_UNREACHABLE', 'The notifications service could not be reached')

  async function handler(request: FastifyRequest, reply: FastifyReply) {
    // The URL is resolved against the instance's origin below, and a URL parser reads
    // `%2e%2e` as `..`: `/socket.io/%2e%2e/metrics` would reach the service's own /metrics and
    // /healthz. The same check as every other proxied prefix refuses any path that leaves
    // /socket.io once decoded (400), before an instance is chosen or asked.
    proxiedPath(request.url, SOCKET_IO_PREFIX, instances[0]!.href)
    const sid = new URL(request.url, 'http://gateway').searchParams.get('sid')
    if (sid) {
      const instance = await sessions.ownerOf(sid)
      // No instance holds it (it ended, or its instance went away): Engine.IO's own answer, so
      // the client starts a new session.
      if (!instance) {
        return reply.code(400).send({ code: UNKNOWN_SID, message: 'Session ID unknown' })
      }
      return serve(request, reply, instance, sid)
    }
    // A new session opens on the instance whose turn it is, or on the next one that can be
    // reached: nothing has been exchanged with a client before its handshake is answered, so
    // a client whose instance died reconnects at once to another, never to the dead one.
    const candidates = sessions.nextInstances()
    for (const [index, instance] of candidates.entries()) {
      try {
        return await serve(request, reply, instance, null)
      } catch (error) {
        const unreachable = error instanceof AppError && error.code === 'UPSTREAM_UNREACHABLE'
        if (!unreachable || index === candidates.length - 1) throw error
        request.log.warn(
          { upstream: 'notifications', instance: instance.origin },
          'socket.io handshake: instance unreachable, trying the next',
        )
      }
    }
  }

  async function serve(
    request: FastifyRequest,
    reply: FastifyReply,
    instance: URL,
    sid: string | null,
  ) {
    if (upgradeOf(request.raw)) {
      return tunnelWebSocket(request, reply, {
        upstreamName: 'notifications',
        target: new URL(request.url, instance),
        timeoutMs: options.upstreamTimeoutMs,
      })
    }
    let answer: UpstreamAnswer
    try {
      answer = await forward(request, reply, instance, options.upstreamTimeoutMs)
    } catch (error) {
      request.log.warn({ err: error, upstream: 'notifications' }, 'socket.io request failed')
      const code = (error as { code?: string }).code
      if (isNoInstance(code)) throw upstreamUnreachable('notifications')
      throw code === 'ETIMEDOUT'
        ? new AppError(504, 'UPSTREAM_TIMEOUT', 'The notifications service did not answer in time')
        : unreachable()
    }
    reply.code(answer.status).headers(responseHeaders(answer.headers))
    if (sid || answer.status !== 200) return reply.send(answer.body)
    // A handshake's answer names the new session: kept, so its next requests come back here.
    const body = await readAll(answer.body)
    const opened = /"sid":"([^"]+)"/.exec(body.toString('utf8'))
    if (opened?.[1]) sessions.remember(opened[1], instance)
    return reply.send(body)
  }

  const methods = ['GET', 'POST']
  scope.route({ method: methods, url: SOCKET_IO_PREFIX, handler })
  scope.route({ method: methods, url: `${SOCKET_IO_PREFIX}/*`, handler })
}

/**
 * Whether `instance` holds Engine.IO session `sid`, asked without touching the session: a GET
 * for the WebSocket transport that is not an upgrade, with protocol 3, is refused before
 * anything runs, with code 1 only when the session is unknown (engine.io Server#verify).
 */
function holdsSession(instance: URL, sid: string, timeoutMs: number): Promise<boolean> {
  const probe = new URL(`${SOCKET_IO_PREFIX}/`, instance)
  probe.search = new URLSearchParams({ EIO: '3', transport: 'websocket', sid }).toString()
  return new Promise((resolve) => {
    const request = clientFor(probe).get(
      probe,
      { agent: false, timeout: timeoutMs },
      (response) => {
        readAll(response)
          .then((body) => {
            const answer = JSON.parse(body.toString('utf8')) as { code?: unknown }
            resolve(answer.code !== UNKNOWN_SID)
          })
          .catch(() => resolve(false))
      },
    )
    request.on('timeout', () => request.destroy())
    request.on('error', () => resolve(false))
  })
}

function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  instance: URL,
  timeoutMs: number,
): Promise<UpstreamAnswer> {
  const target = new URL(request.url, instance)
  const body = Buffer.isBuffer(request.body) ? request.body : null
  const headers = upstreamRequestHeaders(request, request.headers, 'notifications')
  headers.host = target.host
  if (body) headers['content-length'] = String(body.length)
  return new Promise((resolve, reject) => {
    const outgoing = clientFor(target).request(
      target,
      { method: request.method, headers, timeout: timeoutMs },
      (response) =>
        resolve({ status: response.statusCode ?? 502, headers: response.headers, body: response }),
    )
    outgoing.on('timeout', () =>
      outgoing.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
    )
    outgoing.on('error', reject)
    // The browser gave up on a long-poll (or its answer is sent): the request to the
    // instance ends with it.
    reply.raw.once('close', () => outgoing.destroy())
    Readable.from(body ? [body] : []).pipe(outgoing)
  })
}

const clientFor = (url: URL) => (url.protocol === 'https:' ? https : http)

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function responseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !RESPONSE_HOP_BY_HOP.has(name) && name !== 'x-powered-by')
      result[name] = value
  }
  return result
}
