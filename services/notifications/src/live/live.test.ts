import { randomUUID } from 'node:crypto'
import type { Socket } from 'socket.io-client'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'

/** Resolves with the connection's first answer: connected, or the handshake's refusal. */
function outcome(socket: Socket): Promise<'connected' | string> {
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'))
    socket.once('connect_error', (error) => resolve(error.message))
  })
}

function authenticate(socket: Socket, userId: string): Promise<{ success: boolean }> {
  return new Promise((resolve) => {
    socket.once('authenticated', resolve)
    socket.emit('authenticate', userId)
  })
}

interface Pushed {
  notification: { _id: string; message: string; isRead: boolean }
  count: number
}

describe('live notifications over Socket.IO, two instances (real Kafka and FerretDB)', () => {
  let app: NotificationsTestApp
  let replicaUrl: string
  const sockets: Socket[] = []
  const open = (token: string | null, baseUrl?: string) => {
    const socket = app.connectSocket(token, baseUrl)
    sockets.push(socket)
    return socket
  }
  /** A socket of the user's on one instance, authenticated; answers the pushes it receives. */
  const listenAs = async (userId: string, baseUrl?: string): Promise<Pushed[]> => {
    const pushed: Pushed[] = []
    const socket = open(app.tokenFor(userId), baseUrl)
    expect(await outcome(socket)).toBe('connected')
    socket.on('notification', (push: Pushed) => pushed.push(push))
    expect(await authenticate(socket, userId)).toEqual({ success: true })
    return pushed
  }

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_live')
    replicaUrl = (await app.startReplica()).baseUrl
    // The shared "notifications" group of this run is new: it first reads every earlier
    // suite's events. A push under test must not queue behind that replay.
    await app.caughtUp()
  }, 600_000)

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect()
    await app?.stop()
  })

  it('refuses a handshake without a valid token', async () => {
    expect(await outcome(open(null))).toBe('Authentication required')
    expect(await outcome(open('not.a.token'))).toBe('Authentication required')
  })

  it('counts the sockets open on this instance in /metrics', async () => {
    const countNow = async () => {
      const text = (await app.app.inject({ url: '/metrics' })).body
      return Number(/^socketio_connected_sockets\{[^}]*\} (\d+)$/m.exec(text)?.[1])
    }
    const before = await countNow()
    const { userId } = await app.registerUser('Mia')
    const first = open(app.tokenFor(userId))
    const second = open(app.tokenFor(userId))
    expect(await outcome(first)).toBe('connected')
    expect(await outcome(second)).toBe('connected')
    expect(await countNow()).toBe(before + 2)

    first.disconnect()
    second.disconnect()
    await waitFor(async () => (await countNow()) === before, { what: 'sockets counted closed' })
  })

  it("authenticates only the token's own user", async () => {
    const { userId } = await app.registerUser('Ana')
    const socket = open(app.tokenFor(userId))
    expect(await outcome(socket)).toBe('connected')
    expect(await authenticate(socket, 'someone-else')).toEqual({ success: false })
    expect(await authenticate(socket, userId)).toEqual({ success: true })
  })

  it('pushes each new notification with the unread count, from whichever instance holds the socket', async () => {
    // One user on each instance; the "notifications" group stores each notice once, on any
    // instance, and the fan-out brings it to the instance with the socket.
    const first = await app.registerUser('Fay')
    const second = await app.registerUser('Sol')
    const requester = await app.registerUser('Rex')
    const received = new Map<string, Pushed[]>([
      [first.userId, await listenAs(first.userId, app.baseUrl)],
      [second.userId, await listenAs(second.userId, replicaUrl)],
    ])

    // One at a time, so the count each push carries is known: the unread count after it.
    for (let i = 1; i <= 3; i += 1) {
      for (const user of [first, second]) {
        await publishEvent(
          Topics.jobsRequests,
          app.jobRequestEvent('job-request.created', {
            ownerId: user.userId,
            requesterId: requester.userId,
            postTitle: `Job ${i}`,
          }),
        )
      }
      for (const user of [first, second]) {
        const pushes = await waitFor(
          () => received.get(user.userId)!.length === i && received.get(user.userId)!,
          { timeoutMs: EVENT_WAIT_MS, what: `push ${i} to ${user.userId}` },
        )
        expect(pushes[i - 1]).toMatchObject({
          notification: { message: `Wanda Worker sent a request for your post "Job ${i}"` },
          count: i,
        })
      }
    }
    for (const user of [first, second]) {
      const pushes = received.get(user.userId)!
      expect(pushes.every((p) => p.notification.isRead === false)).toBe(true)
      const stored = await app.storedFor(user.userId)
      expect(new Set(pushes.map((p) => p.notification._id))).toEqual(
        new Set(stored.map((n) => n._id)),
      )
    }
  })

  it('pushes the stored unread count, which every read of the count sets right again', async () => {
    const owner = await app.registerUser('Ida')
    const requester = await app.registerUser('Max')
    const pushed = await listenAs(owner.userId)
    const request = (postTitle: string) =>
      publishEvent(
        Topics.jobsRequests,
        app.jobRequestEvent('job-request.created', {
          ownerId: owner.userId,
          requesterId: requester.userId,
          postTitle,
        }),
      )

    await request('First')
    await waitFor(() => pushed.length === 1, { timeoutMs: EVENT_WAIT_MS, what: 'first push' })
    expect(pushed[0]!.count).toBe(1)
    // The stored count drifted (as a crash between counting and storing would leave it).
    const recipients = app.db.collection<{ _id: string; unreadCount?: number }>('recipients')
    await recipients.updateOne({ _id: owner.userId }, { $set: { unreadCount: 40 } })
    const reader = app.clientFor(owner.userId)
    expect((await reader.get('/api/notifications/unread-count')).body).toEqual({ count: 1 })
    expect((await recipients.findOne({ _id: owner.userId }))?.unreadCount).toBe(1)

    await request('Second')
    await waitFor(() => pushed.length === 2, { timeoutMs: EVENT_WAIT_MS, what: 'second push' })
    expect(pushed[1]!.count).toBe(2)
    // Reading one takes it off the count the next push carries.
    const first = (await app.storedFor(owner.userId)).find((n) => n.message.includes('First'))
    await reader.patch(`/api/notifications/${encodeURIComponent(String(first!._id))}/read`, {})
    await request('Third')
    await waitFor(() => pushed.length === 3, { timeoutMs: EVENT_WAIT_MS, what: 'third push' })
    expect(pushed[2]!.count).toBe(2)
  })

  it('pushes a notification published twice only once, and its repeat leaves the count alone', async () => {
    // The outbox publishes at least once: two replicas' relays may both publish one
    // notification, so a repeat of notification.created reaches every instance.
    const owner = await app.registerUser('Uma')
    const pushed = await listenAs(owner.userId)
    const created = (message: string, unreadCount: number) =>
      newEvent('notification.created', {
        aggregateId: owner.userId,
        actorId: owner.userId,
        data: {
          notificationId: `${randomUUID()}:${owner.userId}`,
          userId: owner.userId,
          kind: 'post-request',
          message,
          link: '/settings-employer-requests',
          createdAt: new Date().toISOString(),
          unreadCount,
        },
      })

    const once = created('Once', 1)
    for (const event of [once, once, once, created('Next', 2)])
      await publishEvent(Topics.notifications, event)
    // One key, one partition: when "Next" is pushed, every copy of "Once" was handled.
    await waitFor(() => pushed.some((p) => p.notification.message === 'Next'), {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the push after the repeats',
    })
    expect(pushed.map((p) => [p.notification.message, p.count])).toEqual([
      ['Once', 1],
      ['Next', 2],
    ])
  })

  it('pushes nothing that happened before the instance started: a restarted relay repeats old events', async () => {
    // A relay that died between publishing and clearing its outbox publishes again when it
    // restarts; an instance started after the first copy has not seen it, and its sockets
    // connected after it happened (a client reads its list when it connects).
    const owner = await app.registerUser('Ursula')
    const pushed = await listenAs(owner.userId)
    const created = (message: string, at: Date) => ({
      ...newEvent('notification.created', {
        aggregateId: owner.userId,
        actorId: owner.userId,
        data: {
          notificationId: `${randomUUID()}:${owner.userId}`,
          userId: owner.userId,
          kind: 'post-request',
          message,
          link: '/settings-employer-requests',
          createdAt: at.toISOString(),
          unreadCount: 1,
        },
      }),
      occurredAt: at.toISOString(),
    })
    await publishEvent(
      Topics.notifications,
      created('Before the start', new Date(Date.now() - 3_600_000)),
    )
    await publishEvent(Topics.notifications, created('After the start', new Date()))
    // One key, one partition: when the second is pushed, the first was handled.
    await waitFor(() => pushed.some((p) => p.notification.message === 'After the start'), {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the push of the new one',
    })
    expect(pushed.map((p) => p.notification.message)).toEqual(['After the start'])
  })
})
