import { openLiveConnection, type LiveConnection } from '@/features/notifications/live-connection'
import { io, lastSocket, sockets } from '@/test/fake-socket'

jest.mock('socket.io-client', () => jest.requireActual('@/test/fake-socket'))

const notification = {
  _id: 'n9',
  kind: 'job-request.created',
  message: 'Wanda Worker sent a request for your post "Move a piano"',
  link: '/settings-employer-requests',
  isRead: false,
  status: 'unread',
  createdAt: '2026-11-23T10:00:00.000Z',
}

let close: LiveConnection | undefined
beforeEach(() => {
  sockets.length = 0
  io.mockClear()
  jest.spyOn(console, 'warn').mockImplementation(() => {})
  jest.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => {
  close?.()
  close = undefined
  jest.useRealTimers()
  jest.restoreAllMocks()
})

/** socket.io-client is imported on demand: let that import settle before looking. */
const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve()
}

const open = async (onNotification = jest.fn()) => {
  close = openLiveConnection({ token: 'access-1', userId: 'u1', onNotification })
  await settle()
  return { socket: lastSocket(), onNotification }
}

describe('openLiveConnection', () => {
  it('connects WebSocket first, polling when that fails, with the token and the spec constants', async () => {
    await open()
    expect(io).toHaveBeenCalledWith({
      path: '/socket.io',
      transports: ['websocket', 'polling'],
      tryAllTransports: true,
      auth: expect.any(Function),
      reconnectionAttempts: 5,
      reconnectionDelay: 1000,
      timeout: 5000,
    })
    const send = jest.fn()
    ;(lastSocket().options.auth as (send: unknown) => void)(send)
    expect(send).toHaveBeenCalledWith({ token: 'access-1' })
  })

  it('authenticates with the user id on connect and again on every reconnect', async () => {
    const { socket } = await open()
    socket.serverSends('connect')
    expect(socket.emittedNamed('authenticate')).toEqual([['authenticate', 'u1']])
    socket.serverSends('disconnect', 'transport close')
    socket.serverSends('connect')
    expect(socket.emittedNamed('authenticate')).toHaveLength(2)
  })

  it('retries authentication 2 seconds after a refusal, not before', async () => {
    jest.useFakeTimers()
    const { socket } = await open()
    socket.serverSends('connect')
    socket.serverSends('authenticated', { success: false })
    jest.advanceTimersByTime(1999)
    expect(socket.emittedNamed('authenticate')).toHaveLength(1)
    jest.advanceTimersByTime(1)
    expect(socket.emittedNamed('authenticate')).toHaveLength(2)
    expect(console.warn).toHaveBeenCalled()
  })

  it('does not retry once authentication succeeded', async () => {
    jest.useFakeTimers()
    const { socket } = await open()
    socket.serverSends('connect')
    socket.serverSends('authenticated', { success: true })
    jest.advanceTimersByTime(10_000)
    expect(socket.emittedNamed('authenticate')).toHaveLength(1)
  })

  it('hands a pushed notification with its count to the handler', async () => {
    const { socket, onNotification } = await open()
    socket.serverSends('notification', { notification, count: 4 })
    expect(onNotification).toHaveBeenCalledWith({ notification, count: 4 })
  })

  it('hands the conversations’ pushes to their handlers', async () => {
    const handlers = {
      onMessage: jest.fn(),
      onConversationRead: jest.fn(),
      onMessageTakenDown: jest.fn(),
    }
    close = openLiveConnection({ token: 'a', userId: 'u1', onNotification: jest.fn(), ...handlers })
    await settle()
    const socket = lastSocket()
    const pushed = {
      message: { _id: 'm1', conversationId: 'c1', senderId: 'u2', text: 'Hi' },
      senderName: 'Mia Member',
      postTitle: 'Move a piano',
      unreadCount: 1,
      unreadTotal: 3,
    }
    socket.serverSends('message', pushed)
    socket.serverSends('message', {})
    socket.serverSends('conversation-read', { conversationId: 'c1', readerId: 'u2', readAt: 'x' })
    socket.serverSends('message-taken-down', { conversationId: 'c1', messageId: 'm1' })
    expect(handlers.onMessage.mock.calls).toEqual([[pushed]])
    expect(handlers.onConversationRead).toHaveBeenCalledWith({
      conversationId: 'c1',
      readerId: 'u2',
      readAt: 'x',
    })
    expect(handlers.onMessageTakenDown).toHaveBeenCalledWith({
      conversationId: 'c1',
      messageId: 'm1',
    })
  })

  it('only logs a connection failure', async () => {
    const { socket } = await open()
    socket.serverSends('connect_error', new Error('Authentication required'))
    expect(console.error).toHaveBeenCalledWith('Live connection failed:', 'Authentication required')
  })

  it('reconnects itself after the server disconnected it', async () => {
    const { socket } = await open()
    const connect = jest.spyOn(socket, 'connect')
    socket.serverSends('disconnect', 'io server disconnect')
    expect(connect).toHaveBeenCalled()
  })

  it('a renewed token re-authenticates the open socket, and later (re)connections use it', async () => {
    const { socket } = await open()
    socket.serverSends('connect')
    close?.renewToken('access-2')
    expect(socket.emittedNamed('reauthenticate')).toEqual([
      ['reauthenticate', { token: 'access-2' }],
    ])
    const send = jest.fn()
    ;(socket.options.auth as (send: unknown) => void)(send)
    expect(send).toHaveBeenCalledWith({ token: 'access-2' })
    close?.renewToken('access-2')
    expect(socket.emittedNamed('reauthenticate')).toHaveLength(1)
  })

  it('a socket the server closed (session ended) connects again when a renewed token comes', async () => {
    const { socket } = await open()
    socket.serverSends('connect')
    const connect = jest.spyOn(socket, 'connect')
    socket.disconnect()
    close?.renewToken('access-2')
    expect(connect).toHaveBeenCalled()
    expect(socket.emittedNamed('reauthenticate')).toEqual([])
  })

  it('asks for a renewal when the server says the token is expiring', async () => {
    const onTokenExpiring = jest.fn()
    close = openLiveConnection({
      token: 'a',
      userId: 'u1',
      onNotification: jest.fn(),
      onTokenExpiring,
    })
    await settle()
    lastSocket().serverSends('token-expiring', { expiresAt: '2026-11-24T10:00:00.000Z' })
    expect(onTokenExpiring).toHaveBeenCalledTimes(1)
  })

  it('closing disconnects and cancels a pending retry', async () => {
    jest.useFakeTimers()
    const { socket } = await open()
    socket.serverSends('connect')
    socket.serverSends('authenticated', { success: false })
    close?.()
    close = undefined
    jest.advanceTimersByTime(5000)
    expect(socket.disconnected).toBe(true)
    expect(socket.emittedNamed('authenticate')).toHaveLength(1)
  })
})
