import http from 'node:http'
import net from 'node:net'
import type { Duplex } from 'node:stream'
import { closeServer, listen, rawRequest, startGateway, type RunningGateway } from '../test/helpers'

const HANDSHAKE =
  'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n' +
  'Host: gateway\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
  'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'

/** An upstream that holds each WebSocket handshake until the test lets it answer. */
async function startSlowUpstream() {
  const server = http.createServer()
  const pending: Array<{ socket: Duplex; accept: () => void }> = []
  const arrived: Array<() => void> = []
  server.on('upgrade', (_request, socket: Duplex) => {
    pending.push({
      socket,
      accept: () =>
        socket.write(
          'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
            'Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n',
        ),
    })
    arrived.shift()?.()
  })
  const url = await listen(server)
  return {
    url,
    pending,
    nextHandshake: () =>
      new Promise<void>((resolve) => (pending.length > 0 ? resolve() : arrived.push(resolve))),
    close: async () => {
      for (const { socket } of pending) socket.destroy()
      await closeServer(server)
    },
  }
}

describe('the WebSocket tunnel', () => {
  let upstream: Awaited<ReturnType<typeof startSlowUpstream>>
  let gateway: RunningGateway
  let impatientGateway: RunningGateway

  beforeAll(async () => {
    upstream = await startSlowUpstream()
    gateway = await startGateway({ NOTIFICATIONS_URL: upstream.url })
    impatientGateway = await startGateway({
      NOTIFICATIONS_URL: upstream.url,
      UPSTREAM_TIMEOUT_MS: '1000',
    })
  })

  afterAll(async () => {
    await gateway.app.close()
    await impatientGateway.app.close()
    await upstream.close()
  })

  it('a browser that left before the upstream switched protocols leaves no tunnel open upstream', async () => {
    const browser = net.connect(gateway.port, '127.0.0.1')
    browser.write(HANDSHAKE)
    await upstream.nextHandshake()
    const { socket: upstreamSide, accept } = upstream.pending.at(-1)!
    // After 'upgrade' the upstream's socket is half-open; the gateway hanging up shows as 'end'.
    const gatewayHungUp = new Promise<void>((resolve) =>
      upstreamSide.once('end', () => resolve()).resume(),
    )

    browser.destroy()
    await new Promise((resolve) => setTimeout(resolve, 50))
    accept()

    await gatewayHungUp
  })

  it('an upstream that never answers the handshake gets a 504 in the JSON error shape', async () => {
    const response = await rawRequest(
      `${impatientGateway.url}/socket.io/?EIO=4&transport=websocket`,
      {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      },
    )

    expect(response.status).toBe(504)
    expect(JSON.parse(response.body)).toEqual({
      message: 'The notifications service did not answer in time',
      code: 'UPSTREAM_TIMEOUT',
    })
  })
})
