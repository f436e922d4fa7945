import {
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react'
import type { Dispatch } from '@reduxjs/toolkit'
import type { SessionRenewalAnswer } from '@marketplace/contracts/api'
import {
  credentialsReceived,
  signedOut,
  type SessionEndReason,
  type WithAuth,
} from '@/lib/auth-slice'
import { readCookie, XSRF_COOKIE, XSRF_HEADER } from '@/lib/cookies'
import { isDecisive, takeEarlyRenewal, type EarlyAnswer } from '@/lib/early-session'
import { clearStoredSession, readPersistFlag } from '@/lib/persist'
import { READ_AFTER_HEADER, positionsFor, rememberWrite } from '@/lib/read-after'

export const REFRESH_PATH = '/api/auth/refresh'
/** 3 retries, exponential backoff from 100 ms with up to 20 % jitter. */
export const RETRY = { attempts: 3, baseMs: 100, jitter: 0.2 }

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '',
  credentials: 'include',
  prepareHeaders(headers, { getState, arg }) {
    const token = (getState() as WithAuth).auth.accessToken
    if (token) headers.set('authorization', `Bearer ${token}`)
    // The XSRF token guards what changes state; a read (GET, HEAD) goes without it. Reading
    // document.cookie is a call into the browser's cookie store, about a tenth of the work a
    // query costs on a phone, and the first render starts several reads at once.
    if (!SAFE_METHODS.has(methodOf(arg as string | FetchArgs))) {
      const xsrf = readCookie(XSRF_COOKIE)
      if (xsrf) headers.set(XSRF_HEADER, xsrf)
    } else {
      // A read right after one of the app's writes shows it, whichever instance answers.
      const positions = positionsFor(urlOf(arg as string | FetchArgs))
      if (positions) headers.set(READ_AFTER_HEADER, positions)
    }
    return headers
  },
})

const SAFE_METHODS = new Set(['GET', 'HEAD'])

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Network errors, 429 and 5xx are worth another try; a 4xx answer is final. */
function isRetriable(error: FetchBaseQueryError): boolean {
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') return true
  return typeof error.status === 'number' && (error.status === 429 || error.status >= 500)
}

const urlOf = (args: string | FetchArgs) => (typeof args === 'string' ? args : args.url)

const methodOf = (args: string | FetchArgs) =>
  (typeof args === 'string' ? 'GET' : (args.method ?? 'GET')).toUpperCase()

/**
 * Methods whose repetition changes nothing more than one call did (HTTP's idempotent
 * methods): a PUT sets the same fields again, a DELETE of what is gone answers as before.
 * A POST may create a second thing, so it is never retried.
 */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])

/**
 * Every write carries an `Idempotency-Key`, fresh for each call of the base query (one user
 * action; its retries and its retry after a renewal send the same key): the service answers a
 * repeat with the first answer, and the gateway may send it to the other instance when the
 * first died under it (docs/reliability.md, "A killed instance").
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'

/** A random key; `crypto.randomUUID` exists only on secure origins (https, localhost). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

function withIdempotencyKey(args: string | FetchArgs): string | FetchArgs {
  if (typeof args === 'string' || SAFE_METHODS.has(methodOf(args))) return args
  const headers = new Headers(args.headers as HeadersInit | undefined)
  if (!headers.has(IDEMPOTENCY_KEY_HEADER)) {
    headers.set(IDEMPOTENCY_KEY_HEADER, newIdempotencyKey())
  }
  return { ...args, headers }
}

/**
 * What a keyed write is sent again after: no answer, or 503 (the gateway's or a service's
 * Retry-After: an instance or a server was away). A 500 or another 5xx may be a bug that
 * answers the same again, and a keyed write's 5xx is not replayed, so it is not retried. Nor
 * is a 429: the product's write limits are per minute or per day ("You can send at most 30
 * messages a minute"), so a retry a second later is refused again and only hides the reason,
 * which the person should read.
 */
function isRetriableKeyedWrite(error: FetchBaseQueryError): boolean {
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') return true
  return error.status === 503
}

/**
 * Idempotent calls are retried on network errors, 429 and 5xx; a write with its key on no
 * answer and 503 (the service replays the first answer for the key, so nothing is done
 * twice).
 */
const retryingQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extra,
) => {
  let result = await rawBaseQuery(args, api, extra)
  const method = methodOf(args)
  // Only a signed-in caller's key is kept by the services (sign-in and sign-up have no caller),
  // so only then is a write sent again.
  const keyed =
    typeof args !== 'string' &&
    Boolean((api.getState() as WithAuth).auth.accessToken) &&
    new Headers(args.headers as HeadersInit | undefined).has(IDEMPOTENCY_KEY_HEADER)
  if (IDEMPOTENT_METHODS.has(method) || keyed) {
    const retriable = IDEMPOTENT_METHODS.has(method) ? isRetriable : isRetriableKeyedWrite
    for (let attempt = 0; attempt < RETRY.attempts; attempt += 1) {
      if (!result.error || !retriable(result.error) || api.signal.aborted) break
      const delay = RETRY.baseMs * 2 ** attempt
      await sleep(delay + Math.random() * delay * RETRY.jitter)
      result = await rawBaseQuery(args, api, extra)
    }
  }
  // A write's answer says where it landed; the next reads of that service carry it.
  if (method !== 'GET' && method !== 'HEAD') {
    rememberWrite(urlOf(args), result.meta?.response?.headers.get(READ_AFTER_HEADER) ?? null)
  }
  return result
}

/**
 * The answer is read defensively (no token is a failed renewal) and `token`
 * is read as a fallback name for the access token, which services/auth never sends.
 */
type RefreshAnswer = Partial<SessionRenewalAnswer> & { token?: string }

/** `skipped`: the session may not be renewed (no "Keep me signed in"), nothing was asked. */
export type RenewalOutcome = 'renewed' | 'refused' | 'failed' | 'skipped'

/**
 * Only a session with the persist flag ("Keep me signed in") is ever renewed, on a
 * 401 or 403, at start, or when the live connection warns that its token is expiring. Without
 * it the session lasts as long as its access token (lib/session-expiry.ts ends it then).
 */
export const mayRenewSession = (): boolean => readPersistFlag()

/**
 * One renewal at a time: parallel 401s share it, so a rotated refresh token is never
 * presented twice (the server would take that for theft and end the session).
 */
let renewal: Promise<RenewalOutcome> | null = null

/** POST /api/auth/refresh with the XSRF header, its answer as index.html keeps one. */
async function askForRenewal(): Promise<EarlyAnswer> {
  const xsrf = readCookie(XSRF_COOKIE)
  const response = await fetch(REFRESH_PATH, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', ...(xsrf ? { [XSRF_HEADER]: xsrf } : {}) },
    body: '{}',
  })
  return { status: response.status, body: response.ok ? await response.json() : null }
}

/**
 * The first renewal takes the one index.html started with the page (lib/early-session), if
 * it is there and the server answered it; otherwise, and for every later one, the app asks.
 */
async function renewalAnswer(): Promise<EarlyAnswer> {
  const early = takeEarlyRenewal()
  if (early) {
    const answer = await early
    if (isDecisive(answer)) return answer
  }
  return askForRenewal()
}

export function renewSession(api: {
  dispatch: (action: unknown) => unknown
  getState: () => unknown
}): Promise<RenewalOutcome> {
  if (!mayRenewSession()) return Promise.resolve('skipped')
  renewal ??= (async (): Promise<RenewalOutcome> => {
    try {
      const { status, body } = await renewalAnswer()
      if (status === 401 || status === 403) return 'refused'
      if (status < 200 || status >= 300) return 'failed'
      const answer = (body ?? {}) as RefreshAnswer
      const accessToken = answer.accessToken ?? answer.token
      if (!accessToken || !answer.user) {
        // The product's copy "No token received from refresh endpoint"; signed out only on 401/403.
        console.error('No token received from refresh endpoint')
        return 'failed'
      }
      const user = { ...answer.user, roles: answer.roles ?? answer.user.roles ?? [] }
      api.dispatch(credentialsReceived({ user, accessToken }))
      return 'renewed'
    } catch {
      return 'failed'
    } finally {
      renewal = null
    }
  })()
  return renewal
}

/**
 * Ends the session on this side: the store's session and every stored flag (persist.ts). A
 * reason says it ended by itself, which /login then tells the user.
 */
export function endSession(dispatch: Dispatch, reason?: SessionEndReason) {
  clearStoredSession()
  dispatch(signedOut(reason))
}

export type { SessionEndReason }

/** What the app does when a session ends by itself (set by lib/session-expiry's watchSession). */
let onSessionEnded: (reason: SessionEndReason) => void = () => {}
export function setSessionExpiredHandler(handler: (reason: SessionEndReason) => void) {
  onSessionEnded = handler
}

/** The session ended by itself: cleared on this side, then the app's handler takes over. */
export function sessionEnded(dispatch: Dispatch, reason: SessionEndReason) {
  endSession(dispatch, reason)
  onSessionEnded(reason)
}

/**
 * On a 401 or 403, when the persist flag is set and the request
 * was not retried already and is not the renewal itself, renew once and retry. A refused
 * renewal signs the user out and sends them to /login.
 *
 * Without the flag nothing is renewed (docs/web-app.md): the error is passed on,
 * and a 401 to a request that carried the session's current token ends the session, the
 * backstop of the expiry timer (a sleeping laptop, a clock that disagrees with the server's):
 * the services answer 401 only to a missing, invalid or expired token.
 */
export const baseQueryWithRenewal: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError
> = async (args, api, extra) => {
  const sentToken = (api.getState() as WithAuth).auth.accessToken
  // One key for this action, kept by its retries (a repeat is answered with the first answer).
  args = withIdempotencyKey(args)
  const result = await retryingQuery(args, api, extra)
  const status = result.error?.status
  if (status !== 401 && status !== 403) return result
  const url = typeof args === 'string' ? args : args.url
  if (url === REFRESH_PATH) return result
  if (!mayRenewSession()) {
    const heldToken = (api.getState() as WithAuth).auth.accessToken
    if (status === 401 && sentToken && heldToken === sentToken) {
      sessionEnded(api.dispatch, 'expired')
    }
    return result
  }
  const outcome = await renewSession(api)
  // The one retry: its answer is final, so a 403 that is a real refusal (another user's
  // object) costs one renewal and never loops.
  if (outcome === 'renewed') return retryingQuery(args, api, extra)
  if (outcome === 'refused') sessionEnded(api.dispatch, 'refused')
  return result
}
