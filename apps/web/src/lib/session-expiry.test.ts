import { createStore } from '@/app/store'
import { credentialsReceived, signedOut } from '@/lib/auth-slice'
import { api } from '@/lib/api'
import { writePersistFlag, readPersistFlag } from '@/lib/persist'
import {
  SESSION_ENDED_MESSAGES,
  tokenLifetimeMs,
  watchSession,
  type LoginNavigator,
} from '@/lib/session-expiry'
import { jsonResponse, sampleUser, stubFetch } from '@/test/helpers'

const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/** A token shaped like auth's (header.claims.signature); only the claims are read. */
const tokenWith = (claims: object) =>
  `${base64url({ alg: 'EdDSA', typ: 'JWT' })}.${base64url(claims)}.signature`

/** A token issued now that lives `seconds`. */
const tokenFor = (seconds: number, sub = 'u1') => {
  const iat = Math.floor(Date.now() / 1000)
  return tokenWith({ sub, roles: ['2000'], sid: 's1', iat, exp: iat + seconds })
}

function fakeRouter(pathname = '/settings-account') {
  const navigate = jest.fn()
  const router: LoginNavigator = {
    state: { location: { pathname, search: '?tab=1', hash: '' } },
    navigate,
  }
  return { router, navigate }
}

let stop: (() => void) | null = null
let fetchStub: ReturnType<typeof stubFetch> | null = null
let calls: string[] = []

beforeEach(() => {
  localStorage.clear()
  calls = []
  fetchStub = stubFetch((path, request) => {
    calls.push(`${request.method} ${path}`)
    return path === '/logout' ? new Response(null, { status: 204 }) : jsonResponse(200, {})
  })
  jest.useFakeTimers()
})
afterEach(() => {
  stop?.()
  stop = null
  jest.useRealTimers()
  fetchStub?.restore()
  jest.restoreAllMocks()
})

describe('tokenLifetimeMs', () => {
  it('reads exp - iat, whatever the browser clock says', () => {
    const token = tokenWith({ iat: 1_000, exp: 1_030 })
    expect(tokenLifetimeMs(token, 9_999_999_999_999)).toBe(30_000)
  })

  it('without iat, reads exp against the browser clock, never below 0', () => {
    expect(tokenLifetimeMs(tokenWith({ exp: 2_000 }), 1_990_000)).toBe(10_000)
    expect(tokenLifetimeMs(tokenWith({ exp: 2_000 }), 3_000_000)).toBe(0)
  })

  it('answers null for what is not a readable token', () => {
    expect(tokenLifetimeMs('token')).toBeNull()
    expect(tokenLifetimeMs('a.%%%.c')).toBeNull()
    expect(tokenLifetimeMs(tokenWith({ sub: 'u1' }))).toBeNull()
  })
})

describe('SESSION_ENDED_MESSAGES', () => {
  it('has one message per reason, each asking to log in again', () => {
    for (const text of Object.values(SESSION_ENDED_MESSAGES)) {
      expect(text).toMatch(/^Your session has ended.*Log in again to continue\.$/)
    }
  })
})

describe('watchSession without "Keep me signed in"', () => {
  it('ends the session when the access token expires and sends the user to /login, remembering the page', async () => {
    const store = createStore()
    const { router, navigate } = fakeRouter()
    stop = watchSession(store, router)
    store.dispatch(credentialsReceived({ user: sampleUser, accessToken: tokenFor(30) }))

    jest.advanceTimersByTime(29_999)
    expect(store.getState().auth.user).toEqual(sampleUser)
    expect(navigate).not.toHaveBeenCalled()

    jest.advanceTimersByTime(1)
    expect(store.getState().auth).toMatchObject({ user: null, accessToken: null, ended: 'expired' })
    expect(navigate).toHaveBeenCalledWith('/login', {
      replace: true,
      state: { from: { pathname: '/settings-account', search: '?tab=1', hash: '' } },
    })
    // The refresh cookie the server still holds for it is revoked; nothing is renewed.
    await jest.runAllTimersAsync()
    expect(calls).toEqual(['GET /logout'])
  })

  it('clears the cached server data, as a sign-out does', async () => {
    const probe = api.injectEndpoints({
      endpoints: (build) => ({
        cachedProbe: build.query<unknown, void>({ query: () => '/api/cached-probe' }),
      }),
    })
    const store = createStore()
    stop = watchSession(store, fakeRouter().router)
    store.dispatch(credentialsReceived({ user: sampleUser, accessToken: tokenFor(30) }))
    await store.dispatch(probe.endpoints.cachedProbe.initiate())
    expect(Object.keys(store.getState().api.queries)).toHaveLength(1)
    jest.advanceTimersByTime(30_000)
    expect(store.getState().api.queries).toEqual({})
  })

  it('a new token (another login) starts the count again; signing out stops it', () => {
    const store = createStore()
    const { router, navigate } = fakeRouter()
    stop = watchSession(store, router)
    store.dispatch(credentialsReceived({ user: sampleUser, accessToken: tokenFor(30) }))
    jest.advanceTimersByTime(20_000)
    store.dispatch(credentialsReceived({ user: sampleUser, accessToken: tokenFor(30, 'u1 ') }))
    jest.advanceTimersByTime(20_000)
    expect(store.getState().auth.user).toEqual(sampleUser)
    store.dispatch(signedOut())
    jest.advanceTimersByTime(60_000)
    expect(navigate).not.toHaveBeenCalled()
  })

  it('does not send the user back to /login itself', () => {
    const store = createStore()
    const { router, navigate } = fakeRouter('/login')
    stop = watchSession(store, router)
    store.dispatch(credentialsReceived({ user: sampleUser, accessToken: tokenFor(30) }))
    jest.advanceTimersByTime(30_000)
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true, state: {} })
  })

  it('stops watching when asked', () => {
    const store = createStore()
    const { router, navigate } = fakeRouter()
    stop = watchSession(store, router)
    store.dispatch(credentialsReceived({ user: sampleUser, accessToken: tokenFor(30) }))
    stop()
    stop = null
    jest.advanceTimersByTime(60_000)
    expect(store.getState().auth.user).toEqual(sampleUser)
    expect(navigate).not.toHaveBeenCalled()
  })

  it('leaves a token it cannot read to the 401 backstop', () => {
    const store = createStore()
    const { router, navigate } = fakeRouter()
    stop = watchSession(store, router)
    store.dispatch(credentialsReceived({ user: sampleUser, accessToken: 'opaque' }))
    jest.advanceTimersByTime(24 * 3600_000)
    expect(store.getState().auth.accessToken).toBe('opaque')
    expect(navigate).not.toHaveBeenCalled()
  })
})

describe('watchSession with "Keep me signed in"', () => {
  it('lets the token expire without ending anything: the next call renews as before', async () => {
    writePersistFlag(true)
    const store = createStore()
    const { router, navigate } = fakeRouter()
    stop = watchSession(store, router)
    store.dispatch(credentialsReceived({ user: sampleUser, accessToken: tokenFor(30) }))
    jest.advanceTimersByTime(60_000)
    expect(store.getState().auth.user).toEqual(sampleUser)
    expect(readPersistFlag()).toBe(true)
    expect(navigate).not.toHaveBeenCalled()
    await jest.runAllTimersAsync()
    expect(calls).toEqual([])
  })

  it('a refused renewal goes to /login with its own reason, and calls no logout', async () => {
    writePersistFlag(true)
    fetchStub?.restore()
    fetchStub = stubFetch((path, request) => {
      calls.push(`${request.method} ${path}`)
      return jsonResponse(401, {})
    })
    const probe = api.injectEndpoints({
      endpoints: (build) => ({
        expiryProbe: build.query<unknown, void>({ query: () => '/api/expiry-probe' }),
      }),
    })
    const store = createStore()
    const { router, navigate } = fakeRouter()
    stop = watchSession(store, router)
    store.dispatch(credentialsReceived({ user: sampleUser, accessToken: tokenFor(900) }))
    jest.useRealTimers()
    await store.dispatch(probe.endpoints.expiryProbe.initiate())
    expect(navigate).toHaveBeenCalledWith('/login', {
      replace: true,
      state: { from: { pathname: '/settings-account', search: '?tab=1', hash: '' } },
    })
    expect(store.getState().auth.ended).toBe('refused')
    expect(calls).toEqual(['GET /api/expiry-probe', 'POST /api/auth/refresh'])
    expect(readPersistFlag()).toBe(false)
  })
})
