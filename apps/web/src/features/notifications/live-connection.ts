import type { Socket } from 'socket.io-client'
import {
  LIVE_CONNECTION,
  LIVE_EVENTS,
  type LiveConversationRead,
  type LiveMessage,
  type LiveMessageTakenDown,
  type LiveReauthenticate,
} from '@marketplace/contracts/marketplace'
import type { LiveNotification } from '@/features/notifications/notifications-api'

export const LIVE_PATH = '/socket.io'

export interface LiveConnectionOptions {
  token: string
  userId: string
  onNotification: (payload: LiveNotification) => void
  /** Each time the socket (re)connects. */
  onConnect?: () => void
  /** Conversations: a message sent or received, a read receipt, a take-down. */
  onMessage?: (payload: LiveMessage) => void
  onConversationRead?: (payload: LiveConversationRead) => void
  onMessageTakenDown?: (payload: LiveMessageTakenDown) => void
  /** The server closes the socket at the token's expiry: time to renew the session. */
  onTokenExpiring?: () => void
}

/** Closes the connection; `renewToken` hands it the session's fresh access token. */
export type LiveConnection = (() => void) & { renewToken(token: string): void }

/**
 * The socket options. WebSocket first, then HTTP long-polling when it fails (a
 * proxy that blocks WebSocket): most connections open in one round trip and hold one
 * connection, and nobody is left without live updates (docs/notifications.md). The token is
 * read at every (re)connection, so a reconnect uses the newest one.
 */
export const liveSocketOptions = (token: () => string) => ({
  path: LIVE_PATH,
  transports: ['websocket', 'polling'],
  tryAllTransports: true,
  auth: (send: (data: { token: string }) => void) => send({ token: token() }),
  reconnectionAttempts: LIVE_CONNECTION.reconnectionAttempts,
  reconnectionDelay: LIVE_CONNECTION.reconnectionDelayMs,
  timeout: LIVE_CONNECTION.timeoutMs,
})

/**
 * To the same origin; on every connect (the first and each
 * reconnect) the client authenticates with the user id; a refusal is retried after 2 s.
 * Failures are only logged. The socket lives as long as the session: a renewed
 * token is sent over it (`reauthenticate`), and a socket the server closed reconnects with
 * the newest token. Returns the function that closes it, which also takes renewed tokens.
 */
export function openLiveConnection({
  token,
  userId,
  onNotification,
  onConnect,
  onMessage,
  onConversationRead,
  onMessageTakenDown,
  onTokenExpiring,
}: LiveConnectionOptions): LiveConnection {
  let currentToken = token
  let socket: Socket | null = null
  let retry: ReturnType<typeof setTimeout> | undefined
  let closed = false

  // socket.io-client is loaded only once someone signs in: guests never download it
  // (docs/benchmarks.md, the home route budget).
  import('socket.io-client')
    .then(({ io }) => {
      if (closed) return
      socket = io(liveSocketOptions(() => currentToken))
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
    socket.on(LIVE_EVENTS.tokenExpiring, () => onTokenExpiring?.())
    socket.on(LIVE_EVENTS.reauthenticated, (answer: { success?: boolean } | undefined) => {
      if (!answer?.success) console.warn('Live connection: the renewed token was refused')
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

  const close = () => {
    closed = true
    clearRetry()
    socket?.removeAllListeners()
    socket?.disconnect()
  }
  return Object.assign(close, {
    renewToken(fresh: string) {
      if (closed || fresh === currentToken) return
      currentToken = fresh
      if (!socket) return
      // Connected: the socket now lives as long as the fresh token. Closed by the server
      // meanwhile (its token expired or was revoked): it opens again with the fresh one.
      if (socket.connected) {
        socket.emit(LIVE_EVENTS.reauthenticate, { token: fresh } satisfies LiveReauthenticate)
      } else if (!socket.active) socket.connect()
    },
  })
}
