import type { FastifyInstance } from 'fastify'
import { LRUCache } from 'lru-cache'
import { Server, type Socket } from 'socket.io'
import { Gauge } from 'prom-client'
import type { EventData } from '@marketplace/contracts/events'
import { LIVE_EVENTS } from '@marketplace/contracts/marketplace'
import { viewOfCreatedEvent } from '../notifications/notification-view'
import type { PresenceTracker } from '../presence/presence-tracker'
import type { LiveDelivery } from './live-payloads'
import { createLiveSessions, type TokenLife } from './live-sessions'

const roomOf = (userId: string) => `user:${userId}`

/**
 * How many pushed notification and message event ids an instance remembers, and for how
 * long. The outbox publishes at least once: two replicas' relays can both publish one
 * notification (the writer's relay, and another's sweep that found it still pending), and a
 * crash between publishing and clearing publishes it again. Repeats arrive within seconds
 * of the first.
 */
const RECENT_PUSHES = { max: 20_000, ttl: 10 * 60_000 }

/** The access token of a handshake: `auth.token` (socket.io-client), else a bearer header. */
function tokenOf(socket: Socket): string | null {
  const fromAuth = (socket.handshake.auth as { token?: unknown } | undefined)?.token
  if (typeof fromAuth === 'string' && fromAuth) return fromAuth
  const header = socket.handshake.headers.authorization
  return header?.startsWith('Bearer ') ? header.slice(7) : null
}

/**
 * The live connection, served by this service at /socket.io and reached
 * through the gateway. Both Socket.IO transports: WebSocket, and HTTP long-polling for clients
 * behind proxies that block WebSocket (a default client starts with it); the gateway keeps a
 * polling session on the instance that opened it (docs/notifications.md). The handshake must
 * carry a valid access token, and the socket lives only as long as that token or the fresh
 * ones it re-authenticates with (live-sessions). `authenticate` with a user id succeeds only
 * for the token's own user and joins that user's room; the presence tracker then records that
 * this instance holds a socket of theirs (answered only once recorded, so a message sent after
 * `authenticated` finds the user present).
 */
export function attachLiveServer(
  app: FastifyInstance,
  deps: { unreadCount(userId: string): Promise<number>; presence: PresenceTracker },
) {
  const io = new Server(app.server, {
    path: '/socket.io',
    // Same origin through the gateway: no CORS option, so other sites' pages get none.
    serveClient: false,
  })
  const sessions = createLiveSessions({ verify: (token) => app.verifyAccessToken(token) })
  // Read when /metrics is scraped: the connections this instance holds right now.
  new Gauge({
    name: 'socketio_connected_sockets',
    help: 'Live (Socket.IO) connections open on this instance',
    registers: [app.metrics],
    collect() {
      this.set(io.of('/').sockets.size)
    },
  })

  io.use((socket, next) => {
    sessions
      .lifeOfToken(tokenOf(socket))
      .then((life) => {
        if (!life) return next(new Error('Authentication required'))
        socket.data.userId = life.userId
        socket.data.life = life
        next()
      })
      .catch(() => next(new Error('Authentication required')))
  })

  const holdsSocketOf = (userId: string) =>
    (io.sockets.adapter.rooms.get(roomOf(userId))?.size ?? 0) > 0
  deps.presence.readRoomsWith(holdsSocketOf)

  io.on('connection', (socket) => {
    sessions.admit(socket, socket.data.life as TokenLife)
    socket.on(LIVE_EVENTS.authenticate, async (userId: unknown) => {
      const success = typeof userId === 'string' && userId === socket.data.userId
      if (success) {
        await socket.join(roomOf(userId))
        socket.data.joined = true
        await deps.presence.sync(userId)
      }
      socket.emit(LIVE_EVENTS.authenticated, { success })
    })
    socket.on(LIVE_EVENTS.reauthenticate, async (payload: unknown) => {
      const success = await sessions.renew(socket, (payload as { token?: unknown } | null)?.token)
      socket.emit(LIVE_EVENTS.reauthenticated, { success })
    })
    // The socket has left its rooms by now: the last one of a user here takes presence back.
    socket.on('disconnect', () => {
      if (socket.data.joined) void deps.presence.sync(socket.data.userId as string)
    })
  })

  // Before Fastify closes its server: open WebSockets would otherwise keep it waiting.
  // Closing the transports (not a Socket.IO "server disconnect") lets clients reconnect on
  // their own, to another instance during a rolling deploy. Presence stops writing first:
  // the instance's record is dropped as a whole when it closes.
  app.addHook('preClose', async () => {
    deps.presence.halt()
    io.engine.close()
  })

  // A repeated notification.created must not push again: the toast would show twice and the
  // repeat's count, taken when it was stored, would set the badge back after newer pushes.
  const pushed = new LRUCache<string, true>(RECENT_PUSHES)

  /**
   * A message event's pushes, to the parties' sockets on this instance, once per event id
   * (a repeat would show a message twice or move a badge back).
   */
  function deliverOnce(eventId: string, deliveries: LiveDelivery[]): boolean {
    const here = deliveries.filter(({ userId }) => holdsSocketOf(userId))
    if (here.length === 0 || pushed.has(eventId)) return false
    pushed.set(eventId, true)
    for (const { userId, name, payload } of here) io.to(roomOf(userId)).emit(name, payload)
    return true
  }

  return {
    /**
     * Pushes a stored notification to the user's sockets on this instance, if it holds any,
     * once per notification.
     */
    async push(data: EventData<'notification.created'>): Promise<boolean> {
      const room = io.sockets.adapter.rooms.get(roomOf(data.userId))
      if (!room || room.size === 0) return false
      // Checked and marked before any await, so no repeat handled meanwhile slips through.
      if (pushed.has(data.notificationId)) return false
      pushed.set(data.notificationId, true)
      // Counted when the notification was stored; older events carry none and are counted.
      const count = data.unreadCount ?? (await deps.unreadCount(data.userId))
      io.to(roomOf(data.userId)).emit(LIVE_EVENTS.notification, {
        notification: viewOfCreatedEvent(data),
        count,
      })
      return true
    },
    deliverOnce,
    /** user.tokens-revoked: sockets on tokens issued before the cut-off close at once. */
    revokeTokens: (userId: string, validAfter: Date) => sessions.revoke(userId, validAfter),
    /** user.deleted: every socket of the user closes. */
    endSessionsOf: (userId: string) => sessions.endAllOf(userId),
    connectedSockets: () => io.engine.clientsCount,
  }
}

export type LiveServer = ReturnType<typeof attachLiveServer>
