import http, { type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server, type Socket as ServerSocket } from 'socket.io'
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client'
import { createServiceApp } from '@marketplace/service-kit'
import { webSocketUpgradesPlugin } from '../plugins/websocket-upgrades'
import {
  closeServer,
  listen,
  rawRequest,
  startGateway,
  startRecordingUpstream,
  unusedUrl,
  type RunningGateway,
} from '../test/helpers'
import { SOCKET_IO_PREFIX, socketIoRoutes } from './socket-io'

/** Socket.IO's emitters are not Node EventEmitters, so events.once does not take them. */
function nextEvent<T extends unknown[]>(
  emitter: { once(event: string, listener: (...args: never[]) => void): unknown },
  event: string,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no '${event}' within ${timeoutMs} ms`)),
      timeoutMs,
    )
    emitter.once(event, (...args: unknown[]) => {
      clearTimeout(timer)
      resolve(args as T)
    })
  })
}

interface Handshake {
  auth: Record<string, unknown>
  headers: IncomingHttpHeaders
  transport: string
}

/** A real Socket.IO server standing in for the notifications service. */
async function startNotificationsUpstream() {
  const httpServer = http.createServer()
  const ioServer = new Server(httpServer)
  const handshakes: Handshake[] = []
  ioServer.on('connection', (socket: ServerSocket) => {
    handshakes.push({
      auth: socket.handshake.auth,
      headers: socket.handshake.headers,
      transport: socket.conn.transport.name,
    })
    socket.emit('welcome', { socketId: socket.id })
    socket.on('echo', (payload: unknown, ack: (answer: unknown) => void) =>
      ack({ echoed: payload, transport: socket.conn.transport.name }),
    )
    socket.on('push-me', (payload: unknown) => socket.emit('pushed', payload))
  })
  const url = await listen(httpServer)
  return {
    url,
    handshakes,
    close: async () => {
      ioServer.disconnectSockets(true)
      await new Promise<void>((resolve) => ioServer.close(() => resolve()))
      if (httpServer.listening) await closeServer(httpServer)
    },
  }
}

describe('Socket.IO through the gateway', () => {
  let upstream: Awaited<ReturnType<typeof startNotificationsUpstream>>
  let gateway: RunningGateway
  const clients: Socket[] = []

  beforeAll(async () => {
    upstream = await startNotificationsUpstream()
    gateway = await startGateway({ NOTIFICATIONS_URL: upstream.url })
  })

  afterEach(() => {
    for (const client of clients.splice(0)) client.close()
  })

  afterAll(async () => {
    await gateway.app.close()
    await upstream.close()
  })

  /** Connects and resolves with the server's first event, which proves the server→client way. */
  async function connect(options: Partial<ManagerOptions & SocketOptions>) {
    const client = io(gateway.url, {
      reconnection: false,
      forceNew: true,
      timeout: 5000,
      ...options,
    })
    clients.push(client)
    const welcome = nextEvent<[{ socketId: string }]>(client, 'welcome')
    await new Promise<void>((resolve, reject) => {
      client.once('connect', resolve)
      client.once('connect_error', reject)
    })
    const [greeting] = await welcome
    return { client, greeting }
  }

  async function exchange(client: Socket) {
    const answer = (await client.timeout(5000).emitWithAck('echo', { n: 1 })) as {
      echoed: unknown
      transport: string
    }
    const pushed = nextEvent(client, 'pushed')
    client.emit('push-me', { id: 'notification-1' })
    expect(await pushed).toEqual([{ id: 'notification-1' }])
    expect(answer.echoed).toEqual({ n: 1 })
    return answer
  }

  it('a client on the WebSocket transport only exchanges events both ways', async () => {
    const { client, greeting } = await connect({ transports: ['websocket'] })

    expect(greeting.socketId).toBe(client.id)
    expect(client.io.engine.transport.name).toBe('websocket')
    expect((await exchange(client)).transport).toBe('websocket')
  })

  it('a client on HTTP long-polling only exchanges events both ways', async () => {
    const { client, greeting } = await connect({ transports: ['polling'] })

    expect(greeting.socketId).toBe(client.id)
    expect((await exchange(client)).transport).toBe('polling')
    // A second round trip needs a new poll: one long-poll cycle completed through the gateway.
    expect((await exchange(client)).transport).toBe('polling')
  })

  it('a client on the default transports starts with polling and upgrades to WebSocket', async () => {
    const { client } = await connect({})
    const handshake = upstream.handshakes.at(-1)

    expect(handshake?.transport).toBe('polling')
    await exchange(client)
    if (client.io.engine.transport.name !== 'websocket')
      await nextEvent(client.io.engine, 'upgrade')
    expect(client.io.engine.transport.name).toBe('websocket')
    expect((await exchange(client)).transport).toBe('websocket')
  })

  it('the handshake auth payload reaches the notifications service', async () => {
    const token = 'eyJhbGciOiJFZERTQSJ9.payload.signature'
    await connect({ transports: ['websocket'], auth: { token } })

    expect(upstream.handshakes.at(-1)?.auth).toEqual({ token })
  })

  it('the WebSocket handshake carries the request id and the peer address, not spoofed identity headers', async () => {
    await connect({
      transports: ['websocket'],
      extraHeaders: { 'x-user-id': '000000000000000000000001', 'x-forwarded-for': '203.0.113.9' },
    })

    const headers = upstream.handshakes.at(-1)?.headers ?? {}
    expect(headers['x-user-id']).toBeUndefined()
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(headers['x-forwarded-for']).toBe('127.0.0.1')
  })
})

describe('Socket.IO handshakes the notifications service refuses or cannot take', () => {
  let upstream: Awaited<ReturnType<typeof startNotificationsUpstream>>
  let gateway: RunningGateway
  let gatewayToDown: RunningGateway

  beforeAll(async () => {
    upstream = await startNotificationsUpstream()
    gateway = await startGateway({ NOTIFICATIONS_URL: upstream.url })
    gatewayToDown = await startGateway({ NOTIFICATIONS_URL: await unusedUrl() })
  })

  afterAll(async () => {
    await gateway.app.close()
    await gatewayToDown.app.close()
    await upstream.close()
  })

  it('a handshake the service refuses gets the service’s own answer', async () => {
    const response = await rawRequest(
      `${gateway.url}/socket.io/?EIO=4&transport=websocket&sid=unknown-session`,
      {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      },
    )

    expect(response.status).toBe(400)
    expect(response.body).toContain('Session ID unknown')
  })

  it.each([['websocket'], ['polling']])(
    'with the service down, a %s client gets a connect error at once, not after its timeout',
    async (transport) => {
      // The client's own connect time-out is far away: an error that is not "timeout" came
      // from the gateway's answer, which is what "at once" means (no clock in the assertion).
      const client = io(gatewayToDown.url, {
        transports: [transport],
        reconnection: false,
        forceNew: true,
        timeout: 120_000,
      })
      try {
        const [error] = await nextEvent<[Error]>(client, 'connect_error', 60_000)
        expect(error).toBeInstanceOf(Error)
        expect(error.message).not.toBe('timeout')
      } finally {
        client.close()
      }
    },
  )

  it('with the service down, the handshake answers 503 with Retry-After in the JSON error shape', async () => {
    const response = await rawRequest(`${gatewayToDown.url}/socket.io/?EIO=4&transport=websocket`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    })

    expect(response.status).toBe(503)
    expect(response.headers['retry-after']).toBe('5')
    expect(JSON.parse(response.body)).toEqual({
      message: 'The notifications service could not be reached',
      code: 'UPSTREAM_UNREACHABLE',
    })
  })
})

describe('Socket.IO when the gateway shuts down', () => {
  it('closing the gateway cuts open WebSocket tunnels instead of waiting for them', async () => {
    const upstream = await startNotificationsUpstream()
    const gateway = await startGateway({ NOTIFICATIONS_URL: upstream.url })
    const client = io(gateway.url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    })
    try {
      await nextEvent(client, 'connect')
      const disconnected = nextEvent<[string]>(client, 'disconnect')

      await gateway.app.close()

      expect((await disconnected)[0]).toBe('transport close')
    } finally {
      client.close()
      await upstream.close()
    }
  })
})

/** A Socket.IO stand-in for one notifications instance, which says which one it is. */
async function startNamedInstance(name: string) {
  const httpServer = http.createServer()
  const ioServer = new Server(httpServer)
  const handshakes: string[] = []
  ioServer.on('connection', (socket: ServerSocket) => {
    handshakes.push(socket.conn.transport.name)
    socket.on('whoami', (ack: (answer: unknown) => void) =>
      ack({ instance: name, transport: socket.conn.transport.name }),
    )
    // A notification for this socket's user, pushed once.
    socket.on('notify-me', (id: string) => socket.emit('notification', { id, instance: name }))
  })
  // Every TCP connection, WebSocket tunnels included, for crash() to cut.
  const connections = new Set<import('node:net').Socket>()
  httpServer.on('connection', (connection: import('node:net').Socket) => {
    connections.add(connection)
    connection.once('close', () => connections.delete(connection))
  })
  const url = await listen(httpServer)
  return {
    name,
    url,
    handshakes,
    /** As a killed process: no goodbye to the clients, connections cut, the port closed. */
    crash: async () => {
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()))
      for (const connection of connections) connection.destroy()
      await closed
    },
    close: async () => {
      ioServer.disconnectSockets(true)
      await new Promise<void>((resolve) => ioServer.close(() => resolve()))
      if (httpServer.listening) await closeServer(httpServer)
    },
  }
}

/** The gateway's Socket.IO part alone, as app.ts composes it, in front of `instances`. */
async function startSocketIoGateway(instances: string[]) {
  const app = await createServiceApp({ serviceName: 'gateway', logLevel: 'silent' })
  await app.register(webSocketUpgradesPlugin, { prefixes: [SOCKET_IO_PREFIX] })
  await app.register(socketIoRoutes, { instances, upstreamTimeoutMs: 60_000 })
  await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` }
}

describe('Socket.IO through the gateway to two notifications instances', () => {
  let first: Awaited<ReturnType<typeof startNamedInstance>>
  let second: Awaited<ReturnType<typeof startNamedInstance>>
  let gateway: Awaited<ReturnType<typeof startSocketIoGateway>>
  let otherGateway: Awaited<ReturnType<typeof startSocketIoGateway>>
  const clients: Socket[] = []

  beforeAll(async () => {
    first = await startNamedInstance('first')
    second = await startNamedInstance('second')
    gateway = await startSocketIoGateway([first.url, second.url])
    otherGateway = await startSocketIoGateway([first.url, second.url])
  })

  afterEach(() => {
    for (const client of clients.splice(0)) client.close()
  })

  afterAll(async () => {
    await gateway.app.close()
    await otherGateway.app.close()
    await first.close()
    await second.close()
  })

  async function connectClient(options: Partial<ManagerOptions & SocketOptions>) {
    const client = io(gateway.url, {
      reconnection: false,
      forceNew: true,
      timeout: 5000,
      ...options,
    })
    clients.push(client)
    await new Promise<void>((resolve, reject) => {
      client.once('connect', resolve)
      client.once('connect_error', reject)
    })
    return client
  }

  /** Several round trips and one push, all on the instance the session started on. */
  async function staysOnItsInstance(client: Socket) {
    const notifications: unknown[] = []
    client.on('notification', (payload: unknown) => notifications.push(payload))
    const answers: { instance: string; transport: string }[] = []
    for (let round = 0; round < 3; round += 1) {
      answers.push(await client.timeout(5000).emitWithAck('whoami'))
    }
    const instance = answers[0]!.instance
    expect(answers.every((answer) => answer.instance === instance)).toBe(true)
    client.emit('notify-me', client.id)
    await nextEvent(client, 'notification')
    // Another round trip after the push: a second copy would have arrived before its answer.
    await client.timeout(5000).emitWithAck('whoami')
    expect(notifications).toEqual([{ id: client.id, instance }])
    return { instance, transport: answers.at(-1)!.transport }
  }

  it.each<[string, ('polling' | 'websocket')[] | undefined]>([
    ['polling only', ['polling']],
    ['WebSocket only', ['websocket']],
    ['default (polling, then upgrade)', undefined],
  ])(
    'clients on %s each keep to one instance, and new sessions use both',
    async (_name, transports) => {
      const seen = new Set<string>()
      for (let i = 0; i < 4; i += 1) {
        const client = await connectClient(transports ? { transports } : {})
        const { instance } = await staysOnItsInstance(client)
        seen.add(instance)
        if (!transports) {
          // The upgrade carries the session id: it must reach the instance holding it.
          if (client.io.engine.transport.name !== 'websocket')
            await nextEvent(client.io.engine, 'upgrade')
          expect(await staysOnItsInstance(client)).toEqual({ instance, transport: 'websocket' })
        }
      }
      expect(seen).toEqual(new Set(['first', 'second']))
    },
    30_000,
  )

  it('a polling session opened through another gateway replica is found and kept', async () => {
    const polling = (base: string, sid?: string) =>
      `${base}/socket.io/?EIO=4&transport=polling${sid ? `&sid=${sid}` : ''}`
    const opened = await rawRequest(polling(otherGateway.url), {})
    const sid = (JSON.parse(opened.body.slice(1)) as { sid: string }).sid

    // Socket.IO's CONNECT for the main namespace, then the poll that carries its answer.
    const sent = await rawRequest(polling(gateway.url, sid), {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: '40',
    })
    expect(sent).toMatchObject({ status: 200, body: 'ok' })
    const answer = await rawRequest(polling(gateway.url, sid), {})
    expect(answer.status).toBe(200)
    expect(answer.body).toMatch(/^40\{"sid":/)
  })

  it('a session no instance holds gets Engine.IO’s own refusal', async () => {
    const response = await rawRequest(
      `${gateway.url}/socket.io/?EIO=4&transport=polling&sid=nobody-holds-this`,
      {},
    )
    expect(response.status).toBe(400)
    expect(JSON.parse(response.body)).toEqual({ code: 1, message: 'Session ID unknown' })
  })
})

describe('Socket.IO when one of two notifications instances dies', () => {
  it('a client whose instance died reconnects to the other at once, and new sessions skip the dead one', async () => {
    const first = await startNamedInstance('first')
    const second = await startNamedInstance('second')
    const gateway = await startSocketIoGateway([first.url, second.url])
    const clients: Socket[] = []
    try {
      // Two clients: the handshakes take the instances in turn, so one is on each.
      for (let i = 0; i < 2; i += 1) {
        const client = io(gateway.url, {
          transports: ['websocket'],
          forceNew: true,
          reconnectionDelay: 100,
          reconnectionDelayMax: 200,
        })
        clients.push(client)
        await nextEvent(client, 'connect')
      }
      const whoami = async (client: Socket) =>
        ((await client.timeout(5000).emitWithAck('whoami')) as { instance: string }).instance
      const onFirst = (await whoami(clients[0]!)) === 'first' ? clients[0]! : clients[1]!
      expect(await whoami(onFirst)).toBe('first')

      await first.crash()
      // The one on the dead instance comes back on the other; every handshake from now on
      // lands there, never on a 502 from the dead one.
      await nextEvent(onFirst, 'connect', 10_000)
      expect(await whoami(onFirst)).toBe('second')
      for (let i = 0; i < 3; i += 1) {
        const client = io(gateway.url, {
          transports: ['websocket'],
          forceNew: true,
          reconnection: false,
        })
        clients.push(client)
        await nextEvent(client, 'connect')
        expect(await whoami(client)).toBe('second')
      }
    } finally {
      for (const client of clients) client.close()
      await gateway.app.close()
      await second.close()
    }
  }, 30_000)
})

describe('Socket.IO paths that leave /socket.io once decoded', () => {
  // A notifications stand-in that answers every path, as the real service answers its own
  // /metrics and /healthz: whatever reaches it outside /socket.io/ is recorded.
  let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>
  let gateway: RunningGateway

  beforeAll(async () => {
    upstream = await startRecordingUpstream('notifications')
    gateway = await startGateway({ NOTIFICATIONS_URL: upstream.url })
  })

  afterAll(async () => {
    await gateway.app.close()
    await upstream.close()
  })

  it.each([
    '/socket.io/%2e%2e/metrics',
    '/socket.io/%2e%2e/healthz',
    '/socket.io/.%2e/metrics?EIO=4&transport=polling',
    '/socket.io/%2E%2E/%2e%2e/readyz',
    '/socket.io/..%5cmetrics',
  ])('GET %s is refused with 400 and reaches no instance', async (path) => {
    // `path` given apart: a URL string would be resolved by the client itself, `..` and all.
    const response = await rawRequest(gateway.url, { method: 'GET', path })

    expect(response.status).toBe(400)
    expect(response.body).not.toContain('"service":"notifications"')
    expect(upstream.requests).toEqual([])
  })

  it('a WebSocket upgrade to such a path is refused too', async () => {
    const response = await rawRequest(gateway.url, {
      path: '/socket.io/%2e%2e/metrics?EIO=4&transport=websocket',
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    })

    expect(response.status).toBe(400)
    expect(upstream.requests).toEqual([])
  })

  it('a path under /socket.io/ is still forwarded', async () => {
    const response = await rawRequest(`${gateway.url}/socket.io/?EIO=4&transport=polling`, {
      method: 'GET',
    })

    expect(response.status).toBe(200)
    expect(upstream.requests.at(-1)?.url).toBe('/socket.io/?EIO=4&transport=polling')
  })
})
