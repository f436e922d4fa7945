import { screen, waitFor } from '@testing-library/react'
import { render } from '@testing-library/react'
import { App } from '@/app/App'
import { preloadRoute, routes } from '@/app/router'
import { createStore } from '@/app/store'
import { writePersistFlag } from '@/lib/persist'
import { restoreSession } from '@/lib/session-restore'
import { jsonResponse, renderRoutes, sampleUser, signIn, stubFetch } from '@/test/helpers'
import type { RouteObject } from 'react-router-dom'

// Other engineers' components: the frame only places them.
jest.mock('@/features/notifications/NotificationBell', () => ({
  __esModule: true,
  default: () => <div>notification bell</div>,
}))
jest.mock('@/features/feed/search/SearchBar', () => ({
  __esModule: true,
  default: () => <div>search box</div>,
}))
jest.mock('@/app/modals/ModalHost', () => ({ __esModule: true, default: () => null }))

const renewed = { accessToken: 'fresh-token', user: sampleUser, roles: sampleUser.roles }

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => {
  fetchStub?.restore()
  fetchStub = null
  localStorage.clear()
  window.history.replaceState(null, '', '/')
})

/** Answers the renewal and the account's profile; records every path asked for. */
function serveSession() {
  const paths: string[] = []
  fetchStub = stubFetch((path) => {
    paths.push(path)
    if (path === '/api/auth/refresh') return jsonResponse(200, renewed)
    if (path === `/api/users/${sampleUser._id}`) return jsonResponse(200, { ...sampleUser })
    return jsonResponse(200, {})
  })
  return paths
}

describe('the start with "Keep me signed in"', () => {
  it('once boot restored the session, App shows the signed-in routes at once and renews nothing more', async () => {
    writePersistFlag(true)
    window.history.replaceState(null, '', '/about')
    const paths = serveSession()
    const store = createStore()
    await restoreSession(store)

    render(<App store={store} />)

    // The first render is the routes' frame, not "Loading..." (the top bar says hello).
    expect(screen.getByRole('banner')).toBeInTheDocument()
    expect(await screen.findByText(/Hello Ava/)).toBeInTheDocument()
    expect(paths.filter((path) => path === '/api/auth/refresh')).toHaveLength(1)
  })

  it('App alone (no restore before it) shows "Loading...", renews once, then the routes', async () => {
    writePersistFlag(true)
    window.history.replaceState(null, '', '/about')
    const paths = serveSession()
    const store = createStore()

    render(<App store={store} />)

    expect(screen.getByText('Loading...')).toBeInTheDocument()
    expect(await screen.findByText(/Hello Ava/)).toBeInTheDocument()
    expect(paths.filter((path) => path === '/api/auth/refresh')).toHaveLength(1)
  })
})

describe('preloadRoute (the page in the first render)', () => {
  it("a settings page preloaded renders with the frame's first render, its title before its data", async () => {
    serveSession()
    await preloadRoute('/settings-account')
    const store = createStore()
    signIn(store)

    renderRoutes(routes as RouteObject[], { at: '/settings-account', store })

    // No Suspense fallback in between: the frame and the page's title are there at once.
    expect(screen.getByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument()
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Ava Turner'))
  })

  it('a path no route preloads, or a chunk that fails, still resolves (the lazy route takes over)', async () => {
    await expect(preloadRoute('/no-such-page/at/all')).resolves.toBeUndefined()
  })
})
