import { io, type Socket } from 'socket.io-client'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, signTestToken, testKeyPair, waitFor } from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'

type Transport = 'websocket' | 'polling'

/** A socket and everything the server told it, by live event name, and how it ended. */
interface Watched {
  socket: Socket
  of(name: string): unknown[]
  disconnectReason: () => string | null
}

describe('a live socket lives only as long as its session (real Kafka and FerretDB)', () => {
  // The test signs its own tokens: their issue and expiry instants are what is under test.
  const keys = testKeyPair()
  let app: NotificationsTestApp
  const sockets: Socket[] = []
  const now = () => Math.floor(Date.now() / 1000)
  const tokenFor = (userId: string, claims: { iat: number; exp: number }) =>
    signTestToken(keys.privateKey, {
      sub: userId,
      roles: ['2000'],
      iss: 'marketplace-auth',
      aud: 'marketplace',
      ...claims,
    })

  /** Connects, authenticates as the token's user and records what arrives. */
  async function watch(
    userId: string,
    token: string,
    transports: Transport[] = ['websocket'],
  ): Promise<Watched> {
    const socket = io(app.baseUrl, {
      path: '/socket.io',
      transports,
      auth: { token },
      reconnection: false,
      forceNew: true,
      timeout: 5000,
    })
    sockets.push(socket)
    const received = new Map<string, unknown[]>()
    let disconnectReason: string | null = null
    socket.onAny((name: string, payload: unknown) => {
      received.set(name, [...(received.get(name) ?? []), payload])
    })
    socket.on('disconnect', (reason) => {
      disconnectReason = reason
    })
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    const answer = await new Promise<{ success: boolean }>((resolve) => {
      socket.once('authenticated', resolve)
      socket.emit('authenticate', userId)
    })
    expect(answer).toEqual({ success: true })
    return {
      socket,
      of: (name) => received.get(name) ?? [],
      disconnectReason: () => disconnectReason,
    }
  }

  const reauthenticate = (socket: Socket, token: unknown) =>
    new Promise<{ success: boolean }>((resolve) => {
      socket.once('reauthenticated', resolve)
      socket.emit('reauthenticate', { token })
    })

  const sendRequestTo = (ownerId: string, requesterId: string, postTitle: string) =>
    publishEvent(
      Topics.jobsRequests,
      app.jobRequestEvent('job-request.created', { ownerId, requesterId, postTitle }),
    )

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_live_sessions', {
      JWT_PUBLIC_KEY: keys.publicKey,
    })
    await app.caughtUp()
  }, 600_000)

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect()
    await app?.stop()
  })

  it.each([['websocket'], ['polling']] as const)(
    'a %s socket open across a password change is closed and receives no notification afterwards',
    async (transport) => {
      const owner = await app.registerUser('Pia')
      const requester = await app.registerUser('Ron')
      const issuedBefore = now() - 60
      const old = await watch(
        owner.userId,
        tokenFor(owner.userId, { iat: issuedBefore, exp: now() + 900 }),
        [transport],
      )

      // auth's answer to a password change: every token issued before the cut-off is void.
      const cutOff = now() - 30
      await publishEvent(
        Topics.authUsers,
        newEvent('user.tokens-revoked', {
          aggregateId: owner.userId,
          actorId: owner.userId,
          data: {
            userId: owner.userId,
            validAfter: new Date(cutOff * 1000).toISOString(),
            reason: 'password-changed',
          },
        }),
      )
      await waitFor(() => old.disconnectReason() !== null, {
        timeoutMs: EVENT_WAIT_MS,
        what: 'the old socket closed',
      })
      expect(old.of('session-ended')).toEqual([{ reason: 'revoked' }])
      expect(old.disconnectReason()).toBe('io server disconnect')

      // The fresh session (a token issued since) connects and gets what comes next; the old
      // one neither reconnects nor hears of it.
      const fresh = await watch(
        owner.userId,
        tokenFor(owner.userId, { iat: now(), exp: now() + 900 }),
        [transport],
      )
      await expect(
        watch(owner.userId, tokenFor(owner.userId, { iat: issuedBefore, exp: now() + 900 }), [
          transport,
        ]),
      ).rejects.toThrow('Authentication required')
      await sendRequestTo(owner.userId, requester.userId, 'After the change')
      await waitFor(() => fresh.of('notification').length === 1, {
        timeoutMs: EVENT_WAIT_MS,
        what: 'the push to the fresh socket',
      })
      expect(old.of('notification')).toEqual([])
      expect(fresh.socket.connected).toBe(true)
    },
    120_000,
  )

  it('a socket whose token expires without re-authenticating is told, then closed', async () => {
    const { userId } = await app.registerUser('Eve')
    const expiresAt = now() + 3
    const watched = await watch(userId, tokenFor(userId, { iat: now() - 1, exp: expiresAt }))

    // Less than the warning's lead is left: the request for a fresh token comes at once.
    await waitFor(() => watched.of('token-expiring').length === 1, {
      timeoutMs: 5000,
      what: 'token-expiring',
    })
    expect(watched.of('token-expiring')).toEqual([
      { expiresAt: new Date(expiresAt * 1000).toISOString() },
    ])
    await waitFor(() => watched.disconnectReason() !== null, {
      timeoutMs: 10_000,
      what: 'the socket closed at expiry',
    })
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt * 1000)
    expect(watched.of('session-ended')).toEqual([{ reason: 'expired' }])
    expect(watched.disconnectReason()).toBe('io server disconnect')
  })

  it('a socket that re-authenticates with a fresh token stays open and keeps receiving', async () => {
    const owner = await app.registerUser('Ray')
    const requester = await app.registerUser('Sue')
    const stranger = await app.registerUser('Tom')
    const watched = await watch(
      owner.userId,
      tokenFor(owner.userId, { iat: now() - 1, exp: now() + 3 }),
    )

    // Neither another user's token nor garbage extends it.
    expect(
      await reauthenticate(
        watched.socket,
        tokenFor(stranger.userId, { iat: now(), exp: now() + 900 }),
      ),
    ).toEqual({ success: false })
    expect(await reauthenticate(watched.socket, 'not.a.token')).toEqual({ success: false })
    expect(
      await reauthenticate(
        watched.socket,
        tokenFor(owner.userId, { iat: now(), exp: now() + 900 }),
      ),
    ).toEqual({ success: true })

    // Past the first token's expiry, still open, and still pushed to.
    await new Promise((resolve) => setTimeout(resolve, 5000))
    expect(watched.socket.connected).toBe(true)
    expect(watched.of('session-ended')).toEqual([])
    await sendRequestTo(owner.userId, requester.userId, 'Still here')
    await waitFor(() => watched.of('notification').length === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the push after re-authenticating',
    })
  }, 120_000)

  it('an account deleted at the end of its grace period loses its sockets at once', async () => {
    const { userId } = await app.registerUser('Del')
    const watched = await watch(userId, tokenFor(userId, { iat: now() - 1, exp: now() + 900 }), [
      'polling',
    ])
    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deleted', { aggregateId: userId, actorId: null, data: { userId } }),
    )
    await waitFor(() => watched.disconnectReason() !== null, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the socket of the deleted account closed',
    })
    expect(watched.of('session-ended')).toEqual([{ reason: 'revoked' }])
  }, 120_000)
})
