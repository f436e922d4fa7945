import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createStore } from '@/app/store'
import { renewSession } from '@/lib/base-query'
import { takeEarlyFirstFeedPage } from '@/lib/early-session'
import { readPersistFlag, writePersistFlag } from '@/lib/persist'
import { restoreSession } from '@/lib/session-restore'

// The script index.html runs while the page is parsed: these tests run that very
// text, so the page's request and the app's hand-over are tested together.
const INDEX_HTML = readFileSync(path.join(__dirname, '..', '..', 'index.html'), 'utf8')
const EARLY_SCRIPT = /<script>([\s\S]*?)<\/script>/.exec(INDEX_HTML)?.[1] ?? ''
const runEarlyScript = () => new Function(EARLY_SCRIPT)()

const user = {
  _id: 'u1',
  firstName: 'Ava',
  lastName: 'Turner',
  email: 'ava@example.test',
  phoneNumber: '',
  isWorker: false,
  roles: ['2000'],
}
const renewed = { status: 200, body: { accessToken: 'fresh-token', user, roles: ['2000'] } }
const feedPage = { jobs: [{ _id: 'p1', title: 'Fence' }], pagination: { page: 1 } }

type Reply = { status: number; body?: unknown } | 'network-error'
interface Call {
  path: string
  search: string
  method: string
  headers: Headers
}

/** Answers each URL path from its queue of replies (the last one repeats); records every call. */
function serve(routes: Record<string, Reply[]>) {
  const calls: Call[] = []
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(String(input), init)
    const url = new URL(request.url)
    calls.push({
      path: url.pathname,
      search: url.search,
      method: request.method,
      headers: request.headers,
    })
    const queue = routes[url.pathname]
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

const refreshes = (calls: Call[]) => calls.filter((call) => call.path === '/api/auth/refresh')

beforeEach(() => {
  localStorage.clear()
  delete window.__earlySession
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT'
  window.history.replaceState(null, '', '/')
})
afterEach(() => {
  jest.restoreAllMocks()
})

describe("index.html's early renewal and the app's hand-over", () => {
  it('exactly one refresh request: the page starts it, and the app signs in from its answer', async () => {
    writePersistFlag(true)
    document.cookie = 'XSRF-TOKEN=xsrf-1'
    const calls = serve({ '/api/auth/refresh': [renewed] })

    runEarlyScript()
    const store = createStore()
    // boot.tsx before the first render, App's fallback, a parallel 401: one renewal for all.
    await Promise.all([restoreSession(store), restoreSession(store), renewSession(store)])

    expect(refreshes(calls)).toHaveLength(1)
    expect(refreshes(calls)[0]).toMatchObject({ method: 'POST' })
    expect(refreshes(calls)[0]!.headers.get('x-xsrf-token')).toBe('xsrf-1')
    expect(store.getState().auth).toMatchObject({
      accessToken: 'fresh-token',
      user: { _id: 'u1', roles: ['2000'] },
      restoring: false,
    })
  })

  it('a later renewal (a 401 after the start) asks the server: the early answer is used once', async () => {
    writePersistFlag(true)
    const calls = serve({
      '/api/auth/refresh': [renewed, { status: 200, body: { ...renewed.body, accessToken: 't2' } }],
    })
    runEarlyScript()
    const store = createStore()
    await restoreSession(store)
    await renewSession(store)

    expect(refreshes(calls)).toHaveLength(2)
    expect(store.getState().auth.accessToken).toBe('t2')
  })

  it('an early renewal refused (401) signs out and clears the flag, without asking again', async () => {
    writePersistFlag(true)
    const calls = serve({ '/api/auth/refresh': [{ status: 401, body: { code: 'NO_SESSION' } }] })
    runEarlyScript()
    const store = createStore()
    await restoreSession(store)

    expect(refreshes(calls)).toHaveLength(1)
    expect(store.getState().auth.accessToken).toBeNull()
    expect(readPersistFlag()).toBe(false)
  })

  it.each([
    ['failed on the network', 'network-error' as const],
    ['answered a server error', { status: 503 }],
  ])(
    'an early renewal that %s falls back to the app renewing itself, once',
    async (_case, failure) => {
      writePersistFlag(true)
      const calls = serve({ '/api/auth/refresh': [failure, renewed] })
      runEarlyScript()
      const store = createStore()
      await Promise.all([restoreSession(store), restoreSession(store)])

      expect(refreshes(calls)).toHaveLength(2)
      expect(store.getState().auth.accessToken).toBe('fresh-token')
    },
  )

  it('without the early script (an older page, or its hash refused), the app renews itself', async () => {
    writePersistFlag(true)
    const calls = serve({ '/api/auth/refresh': [renewed] })
    const store = createStore()
    await restoreSession(store)

    expect(refreshes(calls)).toHaveLength(1)
    expect(store.getState().auth.accessToken).toBe('fresh-token')
  })

  it('without "Keep me signed in" the page asks for nothing', async () => {
    const calls = serve({ '/api/auth/refresh': [renewed] })
    runEarlyScript()
    await Promise.resolve()

    expect(calls).toHaveLength(0)
    expect(window.__earlySession).toBeUndefined()
  })

  it("on / the page asks for the feed's first page with the renewed token, once", async () => {
    writePersistFlag(true)
    const calls = serve({
      '/api/auth/refresh': [renewed],
      '/api/jobs': [{ status: 200, body: feedPage }],
    })
    runEarlyScript()
    const page = await takeEarlyFirstFeedPage()

    expect(page).toEqual({ status: 200, body: feedPage })
    const feed = calls.filter((call) => call.path === '/api/jobs')
    expect(feed).toHaveLength(1)
    // feed-api's first query (feed-slice's initial state): page 1, newest first.
    expect(feed[0]!.search).toBe('?page=1&sort=desc')
    expect(feed[0]!.headers.get('authorization')).toBe('Bearer fresh-token')
    expect(takeEarlyFirstFeedPage()).toBeNull()
  })

  it('asks for no feed when the renewal gives no token, nor on another page', async () => {
    writePersistFlag(true)
    const calls = serve({ '/api/auth/refresh': [{ status: 401 }] })
    runEarlyScript()
    expect(await takeEarlyFirstFeedPage()).toBeNull()

    delete window.__earlySession
    window.history.replaceState(null, '', '/settings-account')
    runEarlyScript()
    expect(takeEarlyFirstFeedPage()).toBeNull()
    expect(calls.filter((call) => call.path === '/api/jobs')).toHaveLength(0)
  })
})
