import { ServerResponse, type IncomingMessage, type Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from '@marketplace/service-kit'
import { markUpgrade, upgradeOf } from '../lib/websocket-tunnel'

// The headers that make the offer; HTTP2-Settings is named in Connection alongside Upgrade.
const UPGRADE_OFFER = new Set(['connection', 'upgrade', 'http2-settings'])

export interface WebSocketUpgradesOptions {
  /** Path prefixes whose routes accept WebSocket handshakes (they call tunnelWebSocket). */
  prefixes: string[]
}

/**
 * Sends every WebSocket handshake through the Fastify router, like an ordinary request, so
 * the same hooks (rate limit, request id, headers) and the same error shape apply to it. A
 * handshake outside the WebSocket prefixes is refused with 400; routes under them hand the
 * socket to tunnelWebSocket. On shutdown the open tunnels are cut, since the HTTP server
 * cannot finish closing while they live; Socket.IO clients then reconnect elsewhere.
 */
export const webSocketUpgradesPlugin = fp(
  async (app: FastifyInstance, options: WebSocketUpgradesOptions) => {
    const openSockets = new Set<Duplex>()

    const onUpgrade = (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (raw.headers.upgrade?.toLowerCase() !== 'websocket') {
        serveAsPlainHttp(app.server, raw, socket, head)
        return
      }
      openSockets.add(socket)
      socket.once('close', () => openSockets.delete(socket))
      socket.on('error', () => socket.destroy())
      markUpgrade(raw, { socket, head })

      const response = new ServerResponse(raw)
      response.shouldKeepAlive = false
      response.assignSocket(socket as Socket)
      response.once('finish', () => socket.end())
      app.routing(raw, response)
    }
    app.server.on('upgrade', onUpgrade)

    // Synchronous: it runs on every request and refuses almost none (no promise per request).
    app.addHook('onRequest', (request, _reply, done) => {
      if (upgradeOf(request.raw) && !underPrefix(request.url, options.prefixes)) {
        done(
          new AppError(
            400,
            'WEBSOCKET_NOT_SUPPORTED',
            'WebSocket connections are served under /socket.io only',
          ),
        )
        return
      }
      done()
    })

    app.addHook('preClose', async () => {
      for (const socket of openSockets) socket.destroy()
    })
    app.addHook('onClose', async () => {
      app.server.off('upgrade', onUpgrade)
    })
  },
  { name: 'websocket-upgrades' },
)

/**
 * Node hands every `Connection: Upgrade` request to the 'upgrade' listener once one exists,
 * including curl's opportunistic h2c, whose body the HTTP parser has then stopped reading.
 * Such a request goes back to the HTTP server as a fresh connection, its head rewritten
 * without the upgrade offer, so it is served exactly as if no listener were there.
 */
function serveAsPlainHttp(server: Server, raw: IncomingMessage, socket: Duplex, head: Buffer) {
  const lines = [`${raw.method} ${raw.url} HTTP/${raw.httpVersion}`]
  for (let i = 0; i < raw.rawHeaders.length; i += 2) {
    const name = raw.rawHeaders[i] ?? ''
    if (!UPGRADE_OFFER.has(name.toLowerCase())) lines.push(`${name}: ${raw.rawHeaders[i + 1]}`)
  }
  if (head.length > 0) socket.unshift(head)
  // latin1: header bytes come back exactly as the client sent them.
  socket.unshift(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'))
  server.emit('connection', socket)
}

function underPrefix(url: string, prefixes: string[]): boolean {
  const pathname = url.split('?', 1)[0] ?? ''
  return prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
}
