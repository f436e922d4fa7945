import { randomBytes } from 'node:crypto'
import { Kafka, logLevel } from 'kafkajs'
import { MongoClient, ObjectId } from 'mongodb'
import { io, type Socket, type SocketOptions, type ManagerOptions } from 'socket.io-client'
import { Topics } from '@marketplace/contracts/events'
import { LIVE_EVENTS } from '@marketplace/contracts/marketplace'
import { newEvent } from '@marketplace/service-kit'
import {
  infraEnv,
  signTestToken,
  testKeyPair,
  testMongoUrl,
  waitFor,
} from '@marketplace/service-kit/testing'
import { freePort, startService, waitUntilReady, type RunningService } from './processes'

// As a client sees it: two notifications processes behind the gateway process,
// and Socket.IO clients of the three kinds a browser or a proxy may leave us with: the
// library's default (long-polling first, then the upgrade to WebSocket), polling only (a
// proxy that blocks WebSocket) and WebSocket only. Each connects through the gateway, stays
// connected across many polling round trips (each one must reach the instance holding its
// session), and receives what is pushed to its user exactly once.
describe('the live connection through the gateway, every transport, two notifications instances', () => {
  const infra = infraEnv()
  const keys = testKeyPair()
  const database = testMongoUrl('system_live_transports')
  const common = {
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_GROUP_PREFIX: `system-live-${randomBytes(4).toString('hex')}-`,
    JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
    OUTBOX_POLL_MS: '500',
  }
  const services: RunningService[] = []
  const sockets: Socket[] = []
  let gatewayUrl: string

  const tokenFor = (userId: string) => {
    const now = Math.floor(Date.now() / 1000)
    return signTestToken(keys.privateKey, {
      sub: userId,
      roles: ['2000'],
      iss: 'marketplace-auth',
      aud: 'marketplace',
      iat: now - 1,
      exp: now + 1800,
    })
  }

  beforeAll(async () => {
    const instances: RunningService[] = []
    for (const name of ['notifications-live-a', 'notifications-live-b']) {
      instances.push(
        await startService(name, 'services/notifications', {
          ...common,
          PORT: String(await freePort()),
          MONGO_URL: database,
          SMTP_HOST: infra.smtpHost,
          SMTP_PORT: String(infra.smtpPort),
        }),
      )
    }
    services.push(...instances)
    await Promise.all(instances.map((instance) => waitUntilReady(instance)))
    const gateway = await startService('gateway-live', 'services/gateway', {
      PORT: String(await freePort()),
      NOTIFICATIONS_URL: instances[0]!.url,
      NOTIFICATIONS_INSTANCES: instances.map((instance) => instance.url).join(','),
    })
    services.push(gateway)
    gatewayUrl = gateway.url
  })

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect()
    await Promise.all(services.map((service) => service.stop()))
    const mongo = await new MongoClient(database).connect()
    await mongo.db().dropDatabase()
    await mongo.close()
  })

  const kinds: Array<{ kind: string; options: Partial<ManagerOptions & SocketOptions> }> = [
    { kind: 'default (polling, then upgrade)', options: {} },
    { kind: 'polling only', options: { transports: ['polling'] } },
    { kind: 'WebSocket only', options: { transports: ['websocket'] } },
  ]

  it('connects every kind of client, keeps polling sessions on their instance, and pushes each message once', async () => {
    // Two clients of each kind: new sessions take the instances in turn, so each kind has a
    // session on each instance.
    const clients = kinds.flatMap(({ kind, options }) =>
      [0, 1].map(() => {
        const userId = new ObjectId().toHexString()
        const socket = io(gatewayUrl, {
          ...options,
          path: '/socket.io',
          reconnection: false,
          auth: { token: tokenFor(userId) },
        })
        sockets.push(socket)
        const received: string[] = []
        socket.on(LIVE_EVENTS.message, (payload: { message: { _id: string } }) =>
          received.push(payload.message._id),
        )
        const errors: string[] = []
        socket.on('connect_error', (error) => errors.push(error.message))
        return { kind, userId, socket, received, errors }
      }),
    )
    await waitFor(async () => clients.every((client) => client.socket.connected), {
      timeoutMs: 30_000,
      what: 'every client connected through the gateway',
    })
    expect(clients.flatMap((client) => client.errors)).toEqual([])
    // The app's protocol: the client names its user; the server checks it against
    // the token and answers.
    const answers = await Promise.all(
      clients.map(
        (client) =>
          new Promise<{ success: boolean }>((resolve) => {
            client.socket.once(LIVE_EVENTS.authenticated, resolve)
            client.socket.emit(LIVE_EVENTS.authenticate, client.userId)
          }),
      ),
    )
    expect(answers).toEqual(clients.map(() => ({ success: true })))
    const transportOf = (client: (typeof clients)[number]) => client.socket.io.engine.transport.name
    // The default client upgrades; the polling-only one keeps polling (each poll a request
    // the gateway must send to the instance holding the session).
    await waitFor(
      async () =>
        clients
          .filter((client) => client.kind.startsWith('default'))
          .every((client) => transportOf(client) === 'websocket'),
      { timeoutMs: 20_000, what: 'the default clients upgraded to WebSocket' },
    )
    expect(clients.filter((client) => client.kind === 'polling only').map(transportOf)).toEqual([
      'polling',
      'polling',
    ])

    // Several polling cycles pass (the server answers a long poll at each ping, 25 s by
    // default; a message also ends a poll): push three rounds, each to every user.
    const kafka = new Kafka({ brokers: infra.kafkaBrokers.split(','), logLevel: logLevel.NOTHING })
    const producer = kafka.producer()
    await producer.connect()
    const sent = new Map<string, string[]>()
    try {
      for (let round = 0; round < 3; round += 1) {
        await producer.send({
          topic: Topics.conversations,
          messages: clients.map((client) => {
            const conversationId = `jr:${new ObjectId().toHexString()}`
            const messageId = `${conversationId}:1`
            sent.set(client.userId, [...(sent.get(client.userId) ?? []), messageId])
            const senderId = new ObjectId().toHexString()
            return {
              key: conversationId,
              value: JSON.stringify(
                newEvent('message.sent', {
                  aggregateId: conversationId,
                  actorId: senderId,
                  data: {
                    messageId,
                    conversationId,
                    clientId: null,
                    senderId,
                    senderName: 'Sam Sender',
                    recipientId: client.userId,
                    postTitle: 'Move a piano',
                    text: `Round ${round}`,
                    sentAt: new Date().toISOString(),
                    recipientUnreadCount: round + 1,
                    recipientUnreadTotal: round + 1,
                  },
                }),
              ),
            }
          }),
        })
        await waitFor(async () => clients.every((client) => client.received.length >= round + 1), {
          timeoutMs: 60_000,
          what: `round ${round} pushed to every client`,
        }).catch((error: Error) => {
          const state = clients.map(
            (c) =>
              `${c.kind}: ${c.received.length} received, ${c.socket.connected ? transportOf(c) : 'disconnected'}`,
          )
          throw new Error(`${error.message}\n${state.join('\n')}`)
        })
      }
    } finally {
      await producer.disconnect()
    }
    // Nothing arrives twice (both instances consume every event; each pushes only to the
    // sockets it holds).
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    for (const client of clients) {
      expect({ kind: client.kind, received: client.received }).toEqual({
        kind: client.kind,
        received: sent.get(client.userId),
      })
      expect(client.socket.connected).toBe(true)
    }
    console.log(
      `live transports: ${clients.length} clients (${kinds.map((k) => k.kind).join(', ')}), ` +
        `${[...sent.values()].flat().length} messages pushed, ` +
        `${clients.reduce((n, client) => n + client.received.length, 0)} received`,
    )
  }, 240_000)
})
