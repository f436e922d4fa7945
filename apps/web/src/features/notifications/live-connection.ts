import type { Socket } from 'socket.io-client'
import {
  LIVE_CONNECTION,
  LIVE_EVENTS,
  type LiveConversationRead,
  type LiveMessage,
  type LiveMessageTakenDown,
} from '@marketplace/contracts/marketplace'
import type { LiveNotification } from '@/features/notifications/notifications-api'

export const LIVE_PATH = '/socket.io'

export interface LiveConnectionOptions {
  token: string
  userId: string
  onNotification: (payload: LiveNotification) => void
  /** Each time the socket (re)connects. */
  onConnect?: () => void
  /** Conversations (issue 17): a message sent or received, a read receipt, a take-down. */
  onMessage?: (payload: LiveMessage) => void
  onConversationRead?: (payload: LiveConversationRead) => void
  onMessageTakenDown?: (payload: LiveMessageTakenDown) => void
}

/** The socket options (spec 1 §9); WebSocket only, as the server allows (docs/notifications.md). */
export const liveSocketOptions = (token: string) => ({
  path: LIVE_PATH,
  transports: ['websocket'],
  auth: { token },
  reconnectionAttempts: LIVE_CONNECTION.reconnectionAttempts,
  reconnectionDelay: LIVE_CONNECTION.reconnectionDelayMs,
  timeout: LIVE_CONNECTION.timeoutMs,
})

/**
 * spec 1 §4 "Live connection": to the same origin; on every connect (the first and each
 * reconnect) the client authenticates with the user id; a refusal is retried after 2 s.
 * Failures are only logged (spec 1 §8). Returns the function that closes it.
 */
export function openLiveConnection({
  token,
  userId,
  onNotification,
  onConnect,
  onMessage,
  onConversationRead,
  onMessageTakenDown,
}: LiveConnectionOptions): () => void {
  let socket: Socket | null = null
  let retry: ReturnType<typeof setTimeout> | undefined
  let closed = false

  // socket.io-client is loaded only once someone signs in: guests never download it
  // (docs/benchmarks.md, the home route budget).
  import('socket.io-client')
    .then(({ io }) => {
      if (closed) return
      socket = io(liveSocketOptions(token))
      wire(socket)
    })
    .catch((error: unknown) => console.error('Live connection could not load:', error))

  const clearRetry = () => {
    if (retry !== undefined) clearTimeout(retry)
    retry = undefined
  }
  const authenticate = () => {
    clearRetry()
    if (!closed && socket?.connected) socket.emit(LIVE_EVENTS.authenticate, userId)
  }

  function wire(socket: Socket) {
    socket.on('connect', () => {
      authenticate()
      onConnect?.()
    })
    socket.on(LIVE_EVENTS.authenticated, (answer: { success?: boolean } | undefined) => {
      if (answer?.success) return
      console.warn('Live connection: authentication refused, retrying')
      clearRetry()
      retry = setTimeout(authenticate, LIVE_CONNECTION.reauthenticateRetryMs)
    })
    socket.on(LIVE_EVENTS.notification, (payload: LiveNotification) => {
      if (payload?.notification) onNotification(payload)
    })
    socket.on(LIVE_EVENTS.message, (payload: LiveMessage) => {
      if (payload?.message) onMessage?.(payload)
    })
    socket.on(LIVE_EVENTS.conversationRead, (payload: LiveConversationRead) => {
      if (payload?.conversationId) onConversationRead?.(payload)
    })
    socket.on(LIVE_EVENTS.messageTakenDown, (payload: LiveMessageTakenDown) => {
      if (payload?.messageId) onMessageTakenDown?.(payload)
    })
    socket.on('connect_error', (error: Error) => {
      console.error('Live connection failed:', error.message)
    })
    socket.on('disconnect', (reason: string) => {
      clearRetry()
      // Socket.IO does not reconnect by itself after a server-side disconnect.
      if (reason === 'io server disconnect' && !closed) socket.connect()
    })
  }

  return () => {
    closed = true
    clearRetry()
    socket?.removeAllListeners()
    socket?.disconnect()
  }
}
