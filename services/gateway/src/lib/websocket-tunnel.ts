import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import https from 'node:https'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '@marketplace/service-kit'
import type { UpstreamName } from '../upstreams'
import { upstreamRequestHeaders } from './forwarded-headers'
import { isNoInstance, upstreamUnreachable } from './missing-upstream'

const kUpgrade = Symbol('gateway.upgrade')

export interface PendingUpgrade {
  socket: Duplex
  head: Buffer
}

type UpgradeRequest = IncomingMessage & { [kUpgrade]?: PendingUpgrade }

/** Marks a raw request that arrived through the server's 'upgrade' event. */
export function markUpgrade(raw: IncomingMessage, upgrade: PendingUpgrade): void {
  ;(raw as UpgradeRequest)[kUpgrade] = upgrade
}

/** The client socket of a WebSocket handshake, or undefined for an ordinary request. */
export function upgradeOf(raw: IncomingMessage): PendingUpgrade | undefined {
  return (raw as UpgradeRequest)[kUpgrade]
}

export interface TunnelOptions {
  /** For error messages ("The notifications service could not be reached") and the cookies it gets. */
  upstreamName: UpstreamName
  target: URL
  timeoutMs: number
}

// Response headers that describe the upstream connection, not the message.
const RESPONSE_HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade'])

/**
 * Forwards a WebSocket handshake to the upstream and, once the upstream has switched
 * protocols, joins the two TCP sockets. The browser's handshake is answered with the
 * upstream's own 101 (or its refusal, or a 502 when it cannot be reached), so a client learns
 * at once that the service is down, and frames pass untouched: extensions and subprotocols
 * are negotiated end to end and the upstream's message size limit is the one that applies.
 */
export function tunnelWebSocket(
  request: FastifyRequest,
  reply: FastifyReply,
  options: TunnelOptions,
): Promise<unknown> {
  const upgrade = upgradeOf(request.raw)
  if (!upgrade) throw new Error('tunnelWebSocket called for a request that is not an upgrade')
  const { target } = options

  return new Promise((resolve, reject) => {
    const outgoing = (target.protocol === 'https:' ? https : http).request({
      hostname: target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      method: 'GET',
      agent: false,
      timeout: options.timeoutMs,
      headers: {
        ...upstreamRequestHeaders(request, request.headers, options.upstreamName),
        host: target.host,
        connection: 'Upgrade',
        upgrade: request.headers.upgrade,
      },
    })

    outgoing.on(
      'upgrade',
      (response: IncomingMessage, upstreamSocket: Socket, upstreamHead: Buffer) => {
        const client = upgrade.socket
        reply.hijack()
        // The browser left while the upstream was answering: nothing to join.
        if (client.destroyed || !client.writable) {
          upstreamSocket.destroy()
          resolve(undefined)
          return
        }
        reply.raw.detachSocket(client as Socket)
        client.write(responseHead(response))
        if (upstreamHead.length > 0) client.write(upstreamHead)
        if (upgrade.head.length > 0) upstreamSocket.write(upgrade.head)
        upstreamSocket.setTimeout(0)
        upstreamSocket.setNoDelay(true)
        ;(client as Socket).setNoDelay?.(true)

        const teardown = () => {
          client.destroy()
          upstreamSocket.destroy()
        }
        client.on('error', teardown).on('close', teardown)
        upstreamSocket.on('error', teardown).on('close', teardown)
        upstreamSocket.pipe(client).pipe(upstreamSocket)
        resolve(undefined)
      },
    )

    // The upstream declined to switch protocols (Engine.IO answers 400 to a bad session id):
    // that is its answer to the browser, passed on as an ordinary response.
    outgoing.on('response', (response: IncomingMessage) => {
      reply.code(response.statusCode ?? 502).headers(responseHeaders(response.headers))
      resolve(reply.send(response))
    })

    outgoing.on('timeout', () =>
      outgoing.destroy(Object.assign(new Error('handshake timed out'), { code: 'ETIMEDOUT' })),
    )
    outgoing.on('error', (error: Error & { code?: string }) => {
      request.log.warn(
        { err: error, upstream: options.upstreamName },
        'websocket handshake to upstream failed',
      )
      reject(
        isNoInstance(error.code)
          ? upstreamUnreachable(options.upstreamName)
          : error.code === 'ETIMEDOUT'
            ? new AppError(
                504,
                'UPSTREAM_TIMEOUT',
                `The ${options.upstreamName} service did not answer in time`,
              )
            : new AppError(
                502,
                'UPSTREAM_UNREACHABLE',
                `The ${options.upstreamName} service could not be reached`,
              ),
      )
    })

    outgoing.end()
  })
}

function responseHead(response: IncomingMessage): string {
  const lines = [`HTTP/1.1 ${response.statusCode} ${response.statusMessage ?? ''}`]
  for (let i = 0; i < response.rawHeaders.length; i += 2) {
    lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`)
  }
  return `${lines.join('\r\n')}\r\n\r\n`
}

function responseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !RESPONSE_HOP_BY_HOP.has(name) && name !== 'x-powered-by')
      result[name] = value
  }
  return result
}
