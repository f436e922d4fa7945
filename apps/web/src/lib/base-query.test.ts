import { createStore } from '@/app/store'
import { credentialsReceived, type AuthState } from '@/lib/auth-slice'
import { api } from '@/lib/api'
import { renewSession, setSessionExpiredHandler } from '@/lib/base-query'
import { readPersistFlag, writePersistFlag } from '@/lib/persist'

// A probe endpoint on the app's one api, so these tests run the real base query.
const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<{ ok: boolean }, string>({ query: (path) => path }),
    write: build.mutation<{ ok: boolean }, string>({
      query: (path) => ({ url: path, method: 'POST', body: {} }),
    }),
    replace: build.mutation<{ ok: boolean }, { path: string; method: 'PUT' | 'DELETE' }>({
      query: ({ path, method }) => ({ url: path, method, body: {} }),
    }),
  }),
})

const user = {
  _id: 'u1',
  firstName: 'Ava',
  lastName: 'Turner',
  email: 'ava@example.test',
  phoneNumber: '',
  isWorker: false,
  roles: ['2000'],
}

type Reply = { status: number; body?: unknown } | 'network-error'

/** Answers each URL path from its queue of replies; records every call. */
function serve(routes: Record<string, Reply[]>) {
  const calls: Array<{ path: string; method: string; headers: Headers }> = []
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(String(input), init)
    const path = new URL(request.url).pathname
    calls.push({ path, method: request.method, headers: request.headers })
    const queue = routes[path]
    const reply = queue && queue.length > 1 ? queue.shift()! : queue?.[0]
    if (!reply) return new Response(JSON.stringify({ message: 'no route' }), { status: 404 })
    if (reply === 'network-error') throw new TypeError('Failed to fetch')
    return new Response(JSON.stringify(reply.body ?? {}), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    })
  })
  return calls
}

function signedInStore(token = 'old-token') {
  const store = createStore()
  store.dispatch(credentialsReceived({ user, accessToken: token }))
  return store
}

const authOf = (state: { auth: AuthState }) => state.auth

beforeEach(() => {
  localStorage.clear()
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT'
})
afterEach(() => {
  jest.restoreAllMocks()
  setSessionExpiredHandler(() => {})
})

describe('the shared base query: retries', () => {
  it('retries a GET on network errors, 429 and 5xx, up to 3 times, then succeeds', async () => {
    const calls = serve({
      '/api/probe': [
        'network-error',
        { status: 503 },
        { status: 429 },
        { status: 200, body: { ok: true } },
      ],
    })
    const store = createStore()
    const result = await store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    expect(result.data).toEqual({ ok: true })
    expect(calls.filter((c) => c.path === '/api/probe')).toHaveLength(4)
  })

  it('gives up after the third retry and passes the last error on', async () => {
    const calls = serve({ '/api/probe': [{ status: 502 }] })
    const result = await createStore().dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    expect(result.error).toMatchObject({ status: 502 })
    expect(calls).toHaveLength(4)
  })

  it('retries PUT and DELETE (idempotent) like a GET, with the same limit', async () => {
    const calls = serve({
      '/api/put': ['network-error', { status: 503 }, { status: 200, body: { ok: true } }],
      '/api/delete': [{ status: 502 }],
    })
    const store = createStore()
    const put = await store.dispatch(
      probeApi.endpoints.replace.initiate({ path: '/api/put', method: 'PUT' }),
    )
    expect(put).toMatchObject({ data: { ok: true } })
    const removed = await store.dispatch(
      probeApi.endpoints.replace.initiate({ path: '/api/delete', method: 'DELETE' }),
    )
    expect(removed).toMatchObject({ error: { status: 502 } })
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT /api/put',
      'PUT /api/put',
      'PUT /api/put',
      'DELETE /api/delete',
      'DELETE /api/delete',
      'DELETE /api/delete',
      'DELETE /api/delete',
    ])
  })

  it('never retries a 4xx answer, nor a POST', async () => {
    const calls = serve({ '/api/probe': [{ status: 404 }], '/api/write': [{ status: 503 }] })
    const store = createStore()
    await store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    await store.dispatch(probeApi.endpoints.write.initiate('/api/write'))
    expect(calls.map((c) => c.path)).toEqual(['/api/probe', '/api/write'])
  })

  it('sends a fresh Idempotency-Key with each write, none with a read', async () => {
    const calls = serve({ '/api/probe': [{ status: 200 }], '/api/write': [{ status: 201 }] })
    const store = signedInStore()
    await store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    await store.dispatch(probeApi.endpoints.write.initiate('/api/write'))
    await store.dispatch(probeApi.endpoints.write.initiate('/api/write'))
    const [read, first, second] = calls
    expect(read!.headers.get('idempotency-key')).toBeNull()
    expect(first!.headers.get('idempotency-key')).toMatch(/^[\x21-\x7E]{16,255}$/)
    expect(second!.headers.get('idempotency-key')).toMatch(/^[\x21-\x7E]{16,255}$/)
    expect(second!.headers.get('idempotency-key')).not.toBe(first!.headers.get('idempotency-key'))
  })

  it('a signed-in write is sent again after no answer or a 503, with the same key; a 500 or a 4xx is its answer', async () => {
    const calls = serve({
      '/api/write': ['network-error', { status: 503 }, { status: 201, body: { ok: true } }],
      '/api/broken': [{ status: 500 }],
      '/api/refused': [{ status: 409 }],
    })
    const store = signedInStore()
    const result = await store.dispatch(probeApi.endpoints.write.initiate('/api/write'))
    await store.dispatch(probeApi.endpoints.write.initiate('/api/broken'))
    await store.dispatch(probeApi.endpoints.write.initiate('/api/refused'))

    expect(result.data).toEqual({ ok: true })
    const writes = calls.filter((call) => call.path === '/api/write')
    expect(writes).toHaveLength(3)
    expect(new Set(writes.map((call) => call.headers.get('idempotency-key'))).size).toBe(1)
    expect(calls.filter((call) => call.path !== '/api/write').map((call) => call.path)).toEqual([
      '/api/broken',
      '/api/refused',
    ])
  })

  it('sends the bearer token on every request, and the X-XSRF-TOKEN header on writes', async () => {
    document.cookie = 'XSRF-TOKEN=csrf-value'
    const calls = serve({
      '/api/probe': [{ status: 200, body: { ok: true } }],
      '/api/write': [{ status: 200, body: { ok: true } }],
    })
    const store = signedInStore('token-1')
    await store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    await store.dispatch(probeApi.endpoints.write.initiate('/api/write'))
    expect(calls.map((c) => c.headers.get('authorization'))).toEqual([
      'Bearer token-1',
      'Bearer token-1',
    ])
    // A read changes nothing: the cookie is not read for it (blocking time).
    expect(calls[0]!.headers.get('x-xsrf-token')).toBeNull()
    expect(calls[1]!.headers.get('x-xsrf-token')).toBe('csrf-value')
  })
})

describe('the shared base query: automatic renewal with "Keep me signed in"', () => {
  beforeEach(() => writePersistFlag(true))

  it('on a 401 renews once and retries the request with the new token', async () => {
    const calls = serve({
      '/api/probe': [{ status: 401 }, { status: 200, body: { ok: true } }],
      '/api/auth/refresh': [
        { status: 200, body: { accessToken: 'new-token', user, roles: ['2000'] } },
      ],
    })
    const store = signedInStore()
    const result = await store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    expect(result.data).toEqual({ ok: true })
    expect(calls.map((c) => c.path)).toEqual(['/api/probe', '/api/auth/refresh', '/api/probe'])
    expect(calls[2]!.headers.get('authorization')).toBe('Bearer new-token')
    expect(authOf(store.getState()).accessToken).toBe('new-token')
  })

  it('on a 403 renews once and retries once; a second 403 is the answer, with no loop', async () => {
    const calls = serve({
      '/api/probe': [{ status: 403, body: { message: 'Not yours' } }],
      '/api/auth/refresh': [{ status: 200, body: { accessToken: 'new-token', user } }],
    })
    const result = await signedInStore().dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    expect(result.error).toMatchObject({ status: 403 })
    expect(calls.map((c) => c.path)).toEqual(['/api/probe', '/api/auth/refresh', '/api/probe'])
  })

  it('parallel 401s share one renewal, so a rotated refresh token is never sent twice', async () => {
    const calls = serve({
      '/api/a': [{ status: 401 }, { status: 200, body: { ok: true } }],
      '/api/b': [{ status: 401 }, { status: 200, body: { ok: true } }],
      '/api/auth/refresh': [{ status: 200, body: { accessToken: 'new-token', user } }],
    })
    const store = signedInStore()
    await Promise.all([
      store.dispatch(probeApi.endpoints.probe.initiate('/api/a')),
      store.dispatch(probeApi.endpoints.probe.initiate('/api/b')),
    ])
    expect(calls.filter((c) => c.path === '/api/auth/refresh')).toHaveLength(1)
  })

  it('when the renewal is refused, signs out, removes the flag and sends the user to /login', async () => {
    const expired = jest.fn()
    setSessionExpiredHandler(expired)
    serve({ '/api/probe': [{ status: 401 }], '/api/auth/refresh': [{ status: 401 }] })
    const store = signedInStore()
    const result = await store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    expect(result.error).toMatchObject({ status: 401 })
    expect(authOf(store.getState())).toMatchObject({
      user: null,
      accessToken: null,
      ended: 'refused',
    })
    expect(readPersistFlag()).toBe(false)
    expect(expired).toHaveBeenCalledTimes(1)
    expect(expired).toHaveBeenCalledWith('refused')
  })

  it('a refresh answer without a token keeps the user signed in and passes the error on', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {})
    serve({ '/api/probe': [{ status: 401 }], '/api/auth/refresh': [{ status: 200, body: {} }] })
    const store = signedInStore()
    await store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    expect(console.error).toHaveBeenCalledWith('No token received from refresh endpoint')
    expect(authOf(store.getState()).accessToken).toBe('old-token')
  })
})

describe('the shared base query without "Keep me signed in": no renewal', () => {
  it('without the persist flag and without a session, passes a 401 on without renewing', async () => {
    const calls = serve({ '/api/probe': [{ status: 401 }] })
    const result = await createStore().dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    expect(result.error).toMatchObject({ status: 401 })
    expect(calls.map((c) => c.path)).toEqual(['/api/probe'])
  })

  it("a 401 to the session's token ends the session on this side, without renewing", async () => {
    const ended = jest.fn()
    setSessionExpiredHandler(ended)
    const calls = serve({
      '/api/probe': [{ status: 401 }],
      '/api/auth/refresh': [{ status: 200, body: { accessToken: 'new-token', user } }],
    })
    const store = signedInStore()
    const result = await store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    expect(result.error).toMatchObject({ status: 401 })
    expect(calls.map((c) => c.path)).toEqual(['/api/probe'])
    expect(authOf(store.getState())).toMatchObject({
      user: null,
      accessToken: null,
      ended: 'expired',
    })
    expect(ended).toHaveBeenCalledWith('expired')
  })

  it('a 403 is a refusal, passed on: no renewal, and the session stays', async () => {
    const ended = jest.fn()
    setSessionExpiredHandler(ended)
    const calls = serve({
      '/api/probe': [{ status: 403, body: { message: 'Not yours' } }],
      '/api/auth/refresh': [{ status: 200, body: { accessToken: 'new-token', user } }],
    })
    const store = signedInStore()
    const result = await store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    expect(result.error).toMatchObject({ status: 403 })
    expect(calls.map((c) => c.path)).toEqual(['/api/probe'])
    expect(authOf(store.getState()).accessToken).toBe('old-token')
    expect(ended).not.toHaveBeenCalled()
  })

  it('a 401 to a token the tab no longer holds (signed in again meanwhile) ends nothing', async () => {
    const ended = jest.fn()
    setSessionExpiredHandler(ended)
    const store = signedInStore('first-token')
    jest.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      store.dispatch(credentialsReceived({ user, accessToken: 'second-token' }))
      return new Response('{}', { status: 401, headers: { 'content-type': 'application/json' } })
    })
    await store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'))
    expect(authOf(store.getState()).accessToken).toBe('second-token')
    expect(ended).not.toHaveBeenCalled()
  })

  it('renewSession asks nothing and answers "skipped" (start, the live connection)', async () => {
    const calls = serve({
      '/api/auth/refresh': [{ status: 200, body: { accessToken: 'new-token', user } }],
    })
    const store = signedInStore()
    await expect(renewSession(store)).resolves.toBe('skipped')
    expect(calls).toHaveLength(0)
    expect(authOf(store.getState()).accessToken).toBe('old-token')
  })
})
