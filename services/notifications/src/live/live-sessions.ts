import type { Socket } from 'socket.io'
import {
  LIVE_CONNECTION,
  LIVE_EVENTS,
  type LiveSessionEnded,
  type LiveTokenExpiring,
} from '@marketplace/contracts/marketplace'

/** What a socket knows of the access token it lives on; seconds, as in the token. */
export interface TokenLife {
  userId: string
  issuedAt: number
  expiresAt: number
}

/** The token checks every route makes (signature, issuer, audience, expiry, revocations). */
export type VerifyAccessToken = (token: string) => Promise<{ userId: string }>

// setTimeout takes at most a signed 32-bit delay; a longer one fires at once.
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * `iat` and `exp` of a token `verify` has just accepted (so its payload is the auth
 * service's). A token without them cannot say how long it may live and is refused.
 */
function lifeOf(token: string, userId: string): TokenLife | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      iat?: unknown
      exp?: unknown
    }
    const { iat, exp } = payload
    if (typeof exp !== 'number' || !Number.isFinite(exp)) return null
    return {
      userId,
      issuedAt: typeof iat === 'number' ? iat : Number.NEGATIVE_INFINITY,
      expiresAt: exp,
    }
  } catch {
    return null
  }
}

/**
 * A live socket lives only as long as the session behind it: a signed-out user's socket must not go on hearing. The handshake's
 * token gives it a life until that token's expiry; `reauthenticate` with a fresh token of the
 * same user extends it; `token-expiring` asks the client for one a minute before; at the
 * expiry the socket is told `session-ended` and closed. A revocation of the user's tokens
 * (password changed or reset, account deletion) closes at once every socket living on a token
 * issued before it.
 */
export function createLiveSessions(deps: { verify: VerifyAccessToken }) {
  const leadMs = LIVE_CONNECTION.tokenExpiringLeadMs
  const lives = new WeakMap<Socket, TokenLife>()
  const timers = new WeakMap<Socket, NodeJS.Timeout>()
  const socketsOfUser = new Map<string, Set<Socket>>()

  function end(socket: Socket, reason: LiveSessionEnded['reason']) {
    release(socket)
    if (!socket.connected) return
    socket.emit(LIVE_EVENTS.sessionEnded, { reason } satisfies LiveSessionEnded)
    // The whole connection goes, not just the namespace: a client holding a dead token has
    // nothing left to say on it, and a fresh handshake checks its next token.
    socket.disconnect(true)
  }

  function schedule(socket: Socket, life: TokenLife) {
    clearTimeout(timers.get(socket))
    const expiresAtMs = life.expiresAt * 1000
    const untilWarning = expiresAtMs - leadMs - Date.now()
    const warn = () => {
      socket.emit(LIVE_EVENTS.tokenExpiring, {
        expiresAt: new Date(expiresAtMs).toISOString(),
      } satisfies LiveTokenExpiring)
      const timer = setTimeout(() => end(socket, 'expired'), Math.max(0, expiresAtMs - Date.now()))
      timer.unref()
      timers.set(socket, timer)
    }
    if (untilWarning <= 0) return warn()
    const timer = setTimeout(warn, Math.min(untilWarning, MAX_TIMER_MS))
    timer.unref()
    timers.set(socket, timer)
  }

  function release(socket: Socket) {
    clearTimeout(timers.get(socket))
    timers.delete(socket)
    const life = lives.get(socket)
    if (!life) return
    const sockets = socketsOfUser.get(life.userId)
    sockets?.delete(socket)
    if (sockets?.size === 0) socketsOfUser.delete(life.userId)
  }

  /** The token's checks, then its life: null when it is refused. */
  async function lifeOfToken(token: unknown): Promise<TokenLife | null> {
    if (typeof token !== 'string' || !token) return null
    try {
      const { userId } = await deps.verify(token)
      return lifeOf(token, userId)
    } catch {
      return null
    }
  }

  return {
    lifeOfToken,

    /** A socket whose handshake token was accepted starts living on it. */
    admit(socket: Socket, life: TokenLife) {
      lives.set(socket, life)
      const sockets = socketsOfUser.get(life.userId) ?? new Set<Socket>()
      sockets.add(socket)
      socketsOfUser.set(life.userId, sockets)
      schedule(socket, life)
      socket.once('disconnect', () => release(socket))
    },

    /**
     * `reauthenticate`: a valid token of the socket's own user moves its end to that token's
     * expiry. Another user's token, or an invalid one, changes nothing: the socket still ends
     * with the token it has.
     */
    async renew(socket: Socket, token: unknown): Promise<boolean> {
      const current = lives.get(socket)
      const next = await lifeOfToken(token)
      if (!current || !next || next.userId !== current.userId || !socket.connected) return false
      lives.set(socket, next)
      schedule(socket, next)
      return true
    },

    /** user.tokens-revoked: sockets living on a token issued before the cut-off close now. */
    revoke(userId: string, validAfter: Date) {
      // Same rounding as the kit's token revocations: a token of the cut-off's second survives.
      const cutOff = Math.floor(validAfter.getTime() / 1000)
      for (const socket of [...(socketsOfUser.get(userId) ?? [])]) {
        const life = lives.get(socket)
        if (life && life.issuedAt < cutOff) end(socket, 'revoked')
      }
    },

    /** user.deleted: nothing of the user may stay connected. */
    endAllOf(userId: string) {
      for (const socket of [...(socketsOfUser.get(userId) ?? [])]) end(socket, 'revoked')
    },
  }
}

export type LiveSessions = ReturnType<typeof createLiveSessions>
