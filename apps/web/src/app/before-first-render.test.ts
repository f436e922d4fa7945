import { readFileSync } from 'node:fs'
import path from 'node:path'
import { beforeFirstRender } from '@/app/before-first-render'
import { createStore } from '@/app/store'
import { feedApi, feedQueryOf } from '@/features/feed/feed-api'
import { initialFeedState } from '@/features/feed/feed-slice'
import { readPersistFlag, writePersistFlag } from '@/lib/persist'
import { jsonResponse, sampleUser, stubFetch } from '@/test/helpers'

// index.html's own script, run as the page runs it, then what boot.tsx waits for before the
// first render: the app must come out signed in, from that one renewal.
const INDEX_HTML = readFileSync(path.join(__dirname, '..', '..', 'index.html'), 'utf8')
const EARLY_SCRIPT = /<script>([\s\S]*?)<\/script>/.exec(INDEX_HTML)?.[1] ?? ''
const runEarlyScript = () => new Function(EARLY_SCRIPT)()

const post = { _id: 'p1', title: 'Fence', userID: 'u2', location: null }
const feedAnswer = { jobs: [post], pagination: { page: 1, totalPages: 1, total: 1, limit: 12 } }

/** Answers the renewal (`refresh`), the feed and the configuration; records each request. */
function serve(refresh: { status: number; body?: unknown }) {
  const requests: Array<{ path: string; authorization: string | null }> = []
  fetchStub = stubFetch((pathname, request) => {
    requests.push({ path: pathname, authorization: request.headers.get('authorization') })
    if (pathname === '/api/auth/refresh') return jsonResponse(refresh.status, refresh.body)
    if (pathname === '/api/jobs') return jsonResponse(200, feedAnswer)
    if (pathname === '/app-config.json') return jsonResponse(200, { publicBucketUrl: '' })
    return jsonResponse(404, {})
  })
  return requests
}
const renewed = {
  status: 200,
  body: { accessToken: 'fresh-token', user: sampleUser, roles: sampleUser.roles },
}
const cachedFeed = (store: ReturnType<typeof createStore>) =>
  feedApi.endpoints.getJobsFeed.select(feedQueryOf(initialFeedState))(store.getState()).data

let fetchStub: ReturnType<typeof stubFetch> | null = null
beforeEach(() => {
  delete window.__earlySession
  window.history.replaceState(null, '', '/')
})
afterEach(() => {
  fetchStub?.restore()
  fetchStub = null
  localStorage.clear()
})

describe('before the first render, with "Keep me signed in"', () => {
  it("on /: signed in from the page's one renewal, the feed seeded from its one request", async () => {
    writePersistFlag(true)
    const requests = serve(renewed)
    runEarlyScript()
    const store = createStore()

    await beforeFirstRender(store, '/')

    expect(store.getState().auth).toMatchObject({ accessToken: 'fresh-token', restoring: false })
    expect(store.getState().auth.user?._id).toBe(sampleUser._id)
    expect(requests.filter((r) => r.path === '/api/auth/refresh')).toHaveLength(1)
    const feeds = requests.filter((r) => r.path === '/api/jobs')
    expect(feeds).toEqual([{ path: '/api/jobs', authorization: 'Bearer fresh-token' }])
    expect(cachedFeed(store)?.jobs).toEqual([post])
  })

  it('a refused renewal: signed out, the flag cleared, no feed asked for or seeded', async () => {
    writePersistFlag(true)
    const requests = serve({ status: 401, body: { code: 'SESSION_ENDED' } })
    runEarlyScript()
    const store = createStore()

    await beforeFirstRender(store, '/')

    expect(store.getState().auth.accessToken).toBeNull()
    expect(readPersistFlag()).toBe(false)
    expect(requests.filter((r) => r.path === '/api/auth/refresh')).toHaveLength(1)
    expect(requests.filter((r) => r.path === '/api/jobs')).toHaveLength(0)
    expect(cachedFeed(store)).toBeUndefined()
  })

  it('on a settings page: signed in from the one renewal, no feed', async () => {
    writePersistFlag(true)
    window.history.replaceState(null, '', '/settings-account')
    const requests = serve(renewed)
    runEarlyScript()
    const store = createStore()

    await beforeFirstRender(store, '/settings-account')

    expect(store.getState().auth.accessToken).toBe('fresh-token')
    expect(requests.filter((r) => r.path === '/api/auth/refresh')).toHaveLength(1)
    expect(requests.filter((r) => r.path === '/api/jobs')).toHaveLength(0)
  })

  it('on a home page whose query names its feed (a saved search): signed in, the default feed neither asked for nor seeded', async () => {
    writePersistFlag(true)
    window.history.replaceState(null, '', '/?feed=job&near=Austin%2C+TX&within=25')
    const requests = serve(renewed)
    runEarlyScript()
    const store = createStore()

    await beforeFirstRender(store, '/')

    expect(store.getState().auth.accessToken).toBe('fresh-token')
    expect(requests.filter((r) => r.path === '/api/jobs')).toHaveLength(0)
    expect(cachedFeed(store)).toBeUndefined()
  })

  it("without the page's script the app renews itself, once, and the page asks for its feed", async () => {
    writePersistFlag(true)
    const requests = serve(renewed)
    const store = createStore()

    await beforeFirstRender(store, '/')

    expect(store.getState().auth.accessToken).toBe('fresh-token')
    expect(requests.filter((r) => r.path === '/api/auth/refresh')).toHaveLength(1)
    expect(cachedFeed(store)).toBeUndefined()
  })
})

describe('before the first render, signed out', () => {
  it('on /: the default feed is preloaded; on a home page whose query names its feed, it is not', async () => {
    serve(renewed)
    const preloads = () =>
      [...document.head.querySelectorAll('link[rel="preload"]')].map((link) =>
        link.getAttribute('href'),
      )
    document.head.querySelectorAll('link[rel="preload"]').forEach((link) => link.remove())
    window.history.replaceState(null, '', '/?feed=job&category=Moving')
    await beforeFirstRender(createStore(), '/')
    expect(preloads()).toEqual([])

    window.history.replaceState(null, '', '/')
    await beforeFirstRender(createStore(), '/')
    expect(preloads()).toEqual(['/api/jobs?page=1&sort=desc'])
  })
})
