import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit'
import { paths } from '@/config/paths'
import { api } from '@/lib/api'
import { selectAccessToken, type SessionEndReason, type WithAuth } from '@/lib/auth-slice'
import { sessionEnded, setSessionExpiredHandler } from '@/lib/base-query'
import { readPersistFlag } from '@/lib/persist'
import { sessionApi } from '@/lib/session-api'

/**
 * What /login says to a user whose session ended by itself (the auth slice's `ended`), in one
 * place (our copy, not the spec's). `expired` also says why: without "Keep me signed in" a
 * session is never renewed.
 */
export const SESSION_ENDED_MESSAGES: Record<SessionEndReason, string> = {
  expired:
    'Your session has ended because "Keep me signed in" was not checked. Log in again to continue.',
  refused: 'Your session has ended. Log in again to continue.',
}

/** The navigation state /login receives: the guard's `from`, so login returns there. */
export interface LoginState {
  from?: { pathname: string; search: string; hash: string }
}

/** setTimeout's longest delay (about 24.8 days); a longer one would fire at once (401 then). */
const MAX_DELAY_MS = 2 ** 31 - 1

/**
 * How long an access token lives from now, read from its claims: `exp - iat` when both are
 * there, so a browser clock that disagrees with the server's does not end a session early or
 * late (the token was just issued when it arrives); else `exp` against the browser's clock.
 * Null when the token cannot be read: then only a 401 ends the session.
 */
export function tokenLifetimeMs(token: string, now = Date.now()): number | null {
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/')
    const claims = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))) as {
      exp?: unknown
      iat?: unknown
    }
    if (typeof claims.exp !== 'number') return null
    const lifetime =
      typeof claims.iat === 'number' ? (claims.exp - claims.iat) * 1000 : claims.exp * 1000 - now
    return Math.max(0, lifetime)
  } catch {
    return null
  }
}

export interface SessionStore {
  dispatch: ThunkDispatch<WithAuth, unknown, UnknownAction>
  getState: () => WithAuth
  subscribe: (listener: () => void) => () => void
}

/** The app's router, as far as sending a user to /login needs it. */
export interface LoginNavigator {
  state: { location: { pathname: string; search: string; hash: string } }
  navigate: (to: string, options: { replace: boolean; state: LoginState }) => unknown
}

/**
 * A session without "Keep me signed in" lasts as long as its access
 * token. A timer set from the token's lifetime ends it when the token expires (the base query's
 * 401 is the backstop); with the persist flag it does nothing and renewal goes on as before.
 * A session that ends by itself, expired or refused, is cleaned up as a sign-out on this tab
 * is (the store, stored flags, the cached server data, and for an expired one GET /logout, so
 * its refresh cookie is revoked rather than left valid until the browser closes), and the
 * user goes to /login with the page they were on remembered and a message saying why (the
 * reason is kept in the auth slice until the next login).
 * Returns the function that stops watching.
 */
export function watchSession(store: SessionStore, router: LoginNavigator): () => void {
  setSessionExpiredHandler((reason) => {
    const { pathname, search, hash } = router.state.location
    store.dispatch(api.util.resetApiState())
    // A refused renewal's answer cleared the cookies already; an expired session's refresh
    // cookie is still valid server-side. Its failure changes nothing: the session is over here.
    if (reason === 'expired') {
      store
        .dispatch(sessionApi.endpoints.logout.initiate())
        .unwrap()
        .catch(() => undefined)
    }
    // A guarded page's guard sends the signed-out user to /login as well, with the same
    // `from`; this covers the others. /login reads why from the auth slice.
    router.navigate(paths.login, {
      replace: true,
      state: pathname === paths.login ? {} : { from: { pathname, search, hash } },
    })
  })

  let watched: string | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const follow = () => {
    const token = selectAccessToken(store.getState())
    if (token === watched) return
    watched = token
    clearTimeout(timer)
    timer = undefined
    const lifetime = token ? tokenLifetimeMs(token) : null
    if (lifetime === null || lifetime > MAX_DELAY_MS) return
    timer = setTimeout(() => {
      timer = undefined
      // The flag is read when the token expires: with it, the next call renews as before.
      if (selectAccessToken(store.getState()) !== token || readPersistFlag()) return
      sessionEnded(store.dispatch, 'expired')
    }, lifetime)
  }
  follow()
  const unsubscribe = store.subscribe(follow)
  return () => {
    unsubscribe()
    clearTimeout(timer)
    setSessionExpiredHandler(() => {})
  }
}
