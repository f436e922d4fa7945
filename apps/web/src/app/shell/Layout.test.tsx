import { act, fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import Layout from '@/app/shell/Layout'
import { createStore } from '@/app/store'
import { jsonResponse, renderRoutes, sampleUser, signIn, stubFetch } from '@/test/helpers'
import { writePersistFlag, readPersistFlag } from '@/lib/persist'
import { recordAnalytics } from '@/test/analytics'

// Other engineers' components: the shell only places them.
jest.mock('@/features/feed/search/SearchBar', () => ({
  __esModule: true,
  default: () => <div>search box</div>,
}))
jest.mock('@/features/notifications/NotificationBell', () => ({
  __esModule: true,
  default: () => <div>notification bell</div>,
}))
jest.mock('@/features/feed/FeedToolbar', () => ({
  __esModule: true,
  default: () => <div>feed toolbar</div>,
}))
jest.mock('@/app/modals/ModalHost', () => ({ __esModule: true, default: () => null }))

function BrokenPage(): React.ReactNode {
  throw new Error('this page cannot render')
}

const routes = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <p>home page</p> },
      { path: '/login', element: <p>login page</p> },
      { path: '/signup', element: <p>signup page</p> },
      { path: '/about', element: <p>about page</p> },
      { path: '/settings-account', element: <p>account page</p> },
      { path: '/broken', element: <BrokenPage /> },
    ],
  },
]

function renderShell(at: string, roles?: string[]) {
  const store = createStore()
  if (roles) signIn(store, { ...sampleUser, roles })
  return renderRoutes(routes, { at, store })
}

const topBar = () => screen.getByRole('banner')

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => {
  fetchStub?.restore()
  fetchStub = null
  localStorage.clear()
})

describe('TopBar', () => {
  it('offers guests the feeds, the search box, Login and Sign up', () => {
    renderShell('/about')
    const bar = within(topBar())
    expect(bar.getByRole('link', { name: 'Marketplace' })).toHaveAttribute('href', '/')
    expect(bar.getByRole('button', { name: 'Find posts' })).toBeInTheDocument()
    expect(bar.getByRole('button', { name: 'Find people' })).toBeInTheDocument()
    expect(bar.getByText('search box')).toBeInTheDocument()
    expect(bar.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login')
    expect(bar.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup')
    expect(bar.queryByText('notification bell')).not.toBeInTheDocument()
    expect(bar.queryByText(/Hello/)).not.toBeInTheDocument()
  })

  it('shows a signed-in user the bell, the greeting and the user menu instead of Login', async () => {
    const user = userEvent.setup()
    renderShell('/about', ['2000'])
    const bar = within(topBar())
    // The bell's chunk loads after the first render (TopBar): it shows once loaded.
    expect(await bar.findByText('notification bell')).toBeInTheDocument()
    expect(bar.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument()
    expect(bar.queryByRole('link', { name: 'Sign up' })).not.toBeInTheDocument()
    await user.click(bar.getByRole('button', { name: /Hello Ava/ }))
    const menu = screen.getByRole('list', { name: 'User menu' })
    expect(within(menu).getByRole('link', { name: 'Settings' })).toHaveAttribute(
      'href',
      '/settings-account',
    )
    expect(within(menu).getByRole('button', { name: 'Make a post' })).toBeInTheDocument()
    expect(within(menu).getByRole('button', { name: 'Logout' })).toBeInTheDocument()
    expect(within(menu).queryByRole('link', { name: 'Moderation' })).not.toBeInTheDocument()
  })

  it.each([['2001'], ['2002']])('offers Moderation to role %s', async (role) => {
    const user = userEvent.setup()
    renderShell('/about', ['2000', role])
    await user.click(screen.getByRole('button', { name: /Hello Ava/ }))
    expect(screen.getByRole('link', { name: 'Moderation' })).toHaveAttribute(
      'href',
      '/settings-moderation',
    )
  })

  it('closes the user menu on a click outside', async () => {
    const user = userEvent.setup()
    renderShell('/about', ['2000'])
    await user.click(screen.getByRole('button', { name: /Hello Ava/ }))
    expect(screen.getByRole('list', { name: 'User menu' })).toBeInTheDocument()
    fireEvent.mouseDown(screen.getByText('about page'))
    expect(screen.queryByRole('list', { name: 'User menu' })).not.toBeInTheDocument()
  })

  it('"Make a post" opens the add-post modal', async () => {
    const user = userEvent.setup()
    const { store } = renderShell('/about', ['2000'])
    await user.click(screen.getByRole('button', { name: /Hello Ava/ }))
    await user.click(screen.getByRole('button', { name: 'Make a post' }))
    expect(store.getState().ui.modal).toEqual({ kind: 'addPost' })
  })

  it.each(['/login', '/signup'])('shows only the brand link on %s', (path) => {
    renderShell(path)
    const bar = within(topBar())
    expect(bar.getByRole('link', { name: 'Marketplace' })).toBeInTheDocument()
    expect(bar.queryByRole('button', { name: 'Find posts' })).not.toBeInTheDocument()
    expect(bar.queryByText('search box')).not.toBeInTheDocument()
    expect(bar.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument()
  })

  it('carries the feed toolbar on the home route only', () => {
    const { unmount } = renderShell('/')
    expect(within(topBar()).getByText('feed toolbar')).toBeInTheDocument()
    unmount()
    renderShell('/about')
    expect(screen.queryByText('feed toolbar')).not.toBeInTheDocument()
  })

  it('"Find people" switches the feed to people and goes home', async () => {
    const user = userEvent.setup()
    const { store } = renderShell('/about')
    await user.click(within(topBar()).getByRole('button', { name: 'Find people' }))
    expect(screen.getByText('home page')).toBeInTheDocument()
    expect(store.getState().feed.feedType).toBe('worker')
    await user.click(within(topBar()).getByRole('button', { name: 'Find posts' }))
    expect(store.getState().feed.feedType).toBe('job')
  })

  it('the hamburger menu offers the same items', async () => {
    const user = userEvent.setup()
    renderShell('/about', ['2000'])
    await user.click(screen.getByRole('button', { name: 'Open menu' }))
    const menu = within(screen.getByRole('navigation', { name: 'Menu' }))
    expect(menu.getByText('Hello Ava')).toBeInTheDocument()
    for (const name of ['Find posts', 'Find people', 'Make a post', 'Logout']) {
      expect(menu.getByRole('button', { name })).toBeInTheDocument()
    }
    expect(menu.getByRole('link', { name: 'Settings' })).toBeInTheDocument()
    await user.click(menu.getByRole('link', { name: 'Settings' }))
    expect(screen.getByText('account page')).toBeInTheDocument()
    expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument()
  })

  it('Logout ends the session, calls GET /logout and goes to /login', async () => {
    const calls: string[] = []
    fetchStub = stubFetch((url, request) => {
      calls.push(`${request.method} ${url}`)
      return new Response(null, { status: 204 })
    })
    writePersistFlag(true)
    const user = userEvent.setup()
    const { store } = renderShell('/about', ['2000'])
    await user.click(screen.getByRole('button', { name: /Hello Ava/ }))
    await user.click(screen.getByRole('button', { name: 'Logout' }))
    expect(await screen.findByText('login page')).toBeInTheDocument()
    expect(calls).toEqual(['GET /logout'])
    expect(store.getState().auth).toMatchObject({ user: null, accessToken: null })
    expect(readPersistFlag()).toBe(false)
  })

  it('Logout still goes to /login when the logout call fails', async () => {
    fetchStub = stubFetch(() => jsonResponse(400, { message: 'nope' }))
    const user = userEvent.setup()
    renderShell('/about', ['2000'])
    await user.click(screen.getByRole('button', { name: /Hello Ava/ }))
    await user.click(screen.getByRole('button', { name: 'Logout' }))
    expect(await screen.findByText('login page')).toBeInTheDocument()
  })
})

describe('Footer', () => {
  it('shows the copyright line with the current year and the static pages', () => {
    renderShell('/about')
    const footer = within(screen.getByRole('contentinfo'))
    expect(
      footer.getByText(`© ${new Date().getFullYear()} Marketplace. All rights reserved.`),
    ).toBeInTheDocument()
    expect(footer.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '/terms')
    expect(footer.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about')
    expect(footer.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact-us')
    expect(footer.getByRole('link', { name: 'Help' })).toHaveAttribute('href', '/help')
  })
})

describe('BottomNav', () => {
  const bottomNav = () => within(screen.getByRole('navigation', { name: 'Mobile navigation' }))

  it('offers guests Posts and People but not Create', () => {
    renderShell('/about')
    expect(bottomNav().getByRole('button', { name: 'Posts' })).toBeInTheDocument()
    expect(bottomNav().getByRole('button', { name: 'People' })).toBeInTheDocument()
    expect(bottomNav().queryByRole('button', { name: 'Create' })).not.toBeInTheDocument()
  })

  it('offers Create when logged in, which opens the add-post modal', async () => {
    const user = userEvent.setup()
    const { store } = renderShell('/about', ['2000'])
    await user.click(bottomNav().getByRole('button', { name: 'Create' }))
    expect(store.getState().ui.modal).toEqual({ kind: 'addPost' })
  })

  it('is not shown on the login page', () => {
    renderShell('/login')
    expect(screen.queryByRole('navigation', { name: 'Mobile navigation' })).not.toBeInTheDocument()
  })

  it('People switches the feed type and goes home', async () => {
    const user = userEvent.setup()
    const { store } = renderShell('/about')
    await user.click(bottomNav().getByRole('button', { name: 'People' }))
    expect(screen.getByText('home page')).toBeInTheDocument()
    expect(store.getState().feed.feedType).toBe('worker')
  })
})

describe('page views', () => {
  it('the shell sends a page_view for the first page and each one navigated to', async () => {
    const analytics = recordAnalytics()
    try {
      const user = userEvent.setup()
      renderShell('/about')
      await user.click(within(topBar()).getByRole('link', { name: 'Login' }))
      expect(await screen.findByText('login page')).toBeInTheDocument()
      expect(analytics.events()).toEqual([
        expect.objectContaining({ name: 'page_view', path: '/about', deviceType: 'desktop' }),
        expect.objectContaining({ name: 'page_view', path: '/login', deviceType: 'desktop' }),
      ])
    } finally {
      analytics.stop()
    }
  })
})

describe('a page that fails to render', () => {
  afterEach(() => jest.useRealTimers())

  it('is retried 3 times, then shows the way out inside the frame, which a link away clears', async () => {
    jest.useFakeTimers()
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {})
    try {
      renderShell('/broken')
      const main = screen.getByRole('main')
      expect(within(main).queryByRole('alert')).not.toBeInTheDocument()
      for (let retry = 0; retry < 3; retry += 1) {
        await act(() => jest.advanceTimersByTime(100))
      }
      expect(within(main).getByRole('alert')).toHaveTextContent('Something went wrong')
      // The frame stays around the message: its links lead on as well.
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime })
      await user.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'About' }))
      expect(within(main).getByText('about page')).toBeInTheDocument()
      expect(within(main).queryByRole('alert')).not.toBeInTheDocument()
    } finally {
      consoleError.mockRestore()
    }
  })
})
