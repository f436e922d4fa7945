import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import Layout from '@/app/shell/Layout'
import { createStore } from '@/app/store'
import SettingsLayout from '@/features/settings/SettingsLayout'
import { unreadApi } from '@/features/conversations/unread-api'
import { jsonResponse, renderRoutes, signIn, stubFetch } from '@/test/helpers'
import { lastSocket, sockets } from '@/test/fake-socket'
import { message } from '@/test/conversations-helpers'

jest.mock('socket.io-client', () => jest.requireActual('@/test/fake-socket'))
jest.mock('@/features/feed/search/SearchBar', () => ({ __esModule: true, default: () => null }))
jest.mock('@/features/feed/FeedToolbar', () => ({ __esModule: true, default: () => null }))
jest.mock('@/app/modals/ModalHost', () => ({ __esModule: true, default: () => null }))

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => {
  fetchStub?.restore()
  fetchStub = null
})

/** The shell of a signed-in user whose live connection reads `unreadTotal` messages. */
function renderShell(unreadTotal: number) {
  fetchStub = stubFetch((path) => {
    if (path === '/api/conversations/unread') return jsonResponse(200, { unreadTotal })
    if (path === '/api/notifications/unread-count') return jsonResponse(200, { count: 0 })
    if (path === '/api/notifications') {
      return jsonResponse(200, {
        notifications: [],
        pagination: { current: 1, pages: 0, total: 0 },
        unreadCount: 0,
      })
    }
    return jsonResponse(404, { message: 'Not found' })
  })
  sockets.length = 0
  const store = createStore()
  signIn(store)
  const view = renderRoutes(
    [
      {
        element: <Layout />,
        children: [
          { path: '/about', element: <p>about page</p> },
          { path: '/messages', element: <p>messages page</p> },
        ],
      },
    ],
    { at: '/about', store },
  )
  return { ...view, store }
}

const bottomNav = () => within(screen.getByRole('navigation', { name: 'Mobile navigation' }))

describe('"Messages" in the shell', () => {
  it('shows the unread total in the bottom navigation, the user menu and the hamburger menu', async () => {
    const user = userEvent.setup()
    renderShell(3)
    const entry = await bottomNav().findByRole('link', { name: 'Messages, 3 unread' })
    expect(entry).toHaveAttribute('href', '/messages')
    const greeting = screen.getByRole('button', { name: 'Hello Ava, 3 unread messages' })
    await user.click(greeting)
    const menu = within(screen.getByRole('list', { name: 'User menu' }))
    expect(menu.getByRole('link', { name: 'Messages, 3 unread' })).toHaveAttribute(
      'href',
      '/messages',
    )
    await user.click(screen.getByRole('button', { name: 'Open menu' }))
    const hamburger = within(screen.getByRole('navigation', { name: 'Menu' }))
    await user.click(hamburger.getByRole('link', { name: 'Messages, 3 unread' }))
    expect(screen.getByText('messages page')).toBeInTheDocument()
    expect(bottomNav().getByRole('link', { name: 'Messages, 3 unread' })).toHaveAttribute(
      'aria-current',
      'page',
    )
  })

  it('shows no count when nothing is unread', async () => {
    renderShell(0)
    await waitFor(() => expect(fetchStub?.spy).toHaveBeenCalled())
    expect(await bottomNav().findByRole('link', { name: 'Messages' })).toBeInTheDocument()
    expect(screen.queryByText(/unread/)).not.toBeInTheDocument()
  })

  it('follows the live connection: a message raises the count, a read elsewhere clears it', async () => {
    renderShell(1)
    await bottomNav().findByRole('link', { name: 'Messages, 1 unread' })
    await waitFor(() => expect(sockets).toHaveLength(1))
    const socket = lastSocket()
    act(() =>
      socket.serverSends('message', {
        message: message({ text: 'Are you there?' }),
        senderName: 'Mia Member',
        postTitle: 'Move a piano',
        unreadCount: 2,
        unreadTotal: 2,
      }),
    )
    // RTK batches the cache's notifications to the next frame.
    expect(await bottomNav().findByRole('link', { name: 'Messages, 2 unread' })).toBeInTheDocument()
    act(() =>
      socket.serverSends('conversation-read', {
        conversationId: 'c1',
        readerId: 'u1',
        readAt: new Date().toISOString(),
        unreadTotal: 0,
      }),
    )
    expect(await bottomNav().findByRole('link', { name: 'Messages' })).toBeInTheDocument()
  })

  it('shows the total beside Messages in the settings sidebar', async () => {
    const store = createStore()
    signIn(store)
    await store.dispatch(unreadApi.util.upsertQueryData('getUnreadMessageTotal', undefined, 5))
    renderRoutes(
      [{ element: <SettingsLayout />, children: [{ path: '/messages', element: <p>list</p> }] }],
      { at: '/messages', store },
    )
    const nav = within(screen.getByRole('navigation', { name: 'Settings' }))
    const entry = nav.getByRole('link', { name: 'Messages, 5 unread' })
    expect(entry).toHaveAttribute('href', '/messages')
    expect(entry).toHaveAttribute('aria-current', 'page')
  })
})
