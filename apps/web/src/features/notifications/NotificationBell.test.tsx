import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { MemoryRouter } from 'react-router-dom'
import type { NotificationView } from '@marketplace/contracts/api'
import { createStore, type AppStore } from '@/app/store'
import { credentialsReceived, signedOut } from '@/lib/auth-slice'
import { jsonResponse, sampleUser, signIn, stubFetch } from '@/test/helpers'
import { io, lastSocket, sockets } from '@/test/fake-socket'
import NotificationBell from '@/features/notifications/NotificationBell'
import { notificationsApi } from '@/features/notifications/notifications-api'
import { api } from '@/lib/api'

jest.mock('socket.io-client', () => jest.requireActual('@/test/fake-socket'))

const note = (id: string, isRead: boolean, message = `Message ${id}`): NotificationView => ({
  _id: id,
  kind: 'post-request',
  message,
  link: '/settings-employer-requests',
  isRead,
  status: isRead ? 'read' : 'unread',
  createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
})

/** A small notifications service: pages of 10, newest first. */
function serve(
  all: NotificationView[],
  { failList = false, holdList }: { failList?: boolean; holdList?: Promise<void> } = {},
) {
  let items = [...all]
  const calls: string[] = []
  const unread = () => items.filter((n) => !n.isRead).length
  const stub = stubFetch(async (path, request) => {
    const url = new URL(request.url)
    calls.push(`${request.method} ${path}${url.search}`)
    if (path === '/api/notifications/unread-count') return jsonResponse(200, { count: unread() })
    if (path === '/api/notifications' && holdList) await holdList
    if (path === '/api/notifications' && failList) return jsonResponse(400, { message: 'No' })
    if (path === '/api/notifications') {
      const page = Number(url.searchParams.get('page'))
      const limit = Number(url.searchParams.get('limit'))
      return jsonResponse(200, {
        notifications: items.slice((page - 1) * limit, page * limit),
        pagination: { current: page, pages: Math.ceil(items.length / limit), total: items.length },
        unreadCount: unread(),
      })
    }
    if (path === '/api/notifications/mark-all-read') {
      items = items.map((n) => ({ ...n, isRead: true, status: 'read' }))
      return jsonResponse(200, { unreadCount: 0 })
    }
    if (path === '/api/notifications/clear-read') {
      const before = items.length
      items = items.filter((n) => !n.isRead)
      return jsonResponse(200, { deleted: before - items.length })
    }
    const read = path.match(/^\/api\/notifications\/([^/]+)\/read$/)
    if (read) {
      items = items.map((n) => (n._id === read[1] ? { ...n, isRead: true, status: 'read' } : n))
      return jsonResponse(200, { unreadCount: unread() })
    }
    return jsonResponse(404, { message: 'Not found' })
  })
  return { calls, stub }
}

function renderBell() {
  const store = createStore()
  signIn(store)
  const view = render(
    <Provider store={store}>
      <MemoryRouter>
        <NotificationBell />
        <p>Elsewhere</p>
      </MemoryRouter>
    </Provider>,
  )
  return { ...view, store }
}

const listOf = (store: AppStore) =>
  notificationsApi.endpoints.getNotifications.select(undefined)(store.getState()).data

const bell = () => screen.getByRole('button', { name: /^Notifications/ })

let server: ReturnType<typeof serve> | null = null
beforeEach(() => {
  sockets.length = 0
  io.mockClear()
})
afterEach(() => {
  server?.stub.restore()
  server = null
})

describe('NotificationBell', () => {
  it('shows the unread count on the bell and in its name', async () => {
    server = serve([note('n1', false), note('n2', false), note('n3', true)])
    renderBell()
    expect(await screen.findByRole('button', { name: 'Notifications, 2 unread' })).toHaveAttribute(
      'aria-expanded',
      'false',
    )
    expect(screen.getByText('2')).toBeInTheDocument()
  })

  it('says "Loading notifications..." while the list loads, then lists them', async () => {
    let release = () => {}
    const holdList = new Promise<void>((resolve) => (release = resolve))
    server = serve([note('n1', true, 'Your request for "Move a piano" was accepted')], {
      holdList,
    })
    const user = userEvent.setup()
    renderBell()
    await user.click(bell())
    expect(screen.getByText('Loading notifications...')).toBeInTheDocument()
    release()
    expect(
      await screen.findByText('Your request for "Move a piano" was accepted'),
    ).toBeInTheDocument()
    expect(screen.getByText('5 minutes ago')).toBeInTheDocument()
    expect(bell()).toHaveAttribute('aria-expanded', 'true')
  })

  it('says "No notifications" when there are none', async () => {
    server = serve([])
    const user = userEvent.setup()
    renderBell()
    await user.click(bell())
    expect(await screen.findByText('No notifications')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument()
  })

  it('shows an error with a retry when the list cannot be read', async () => {
    server = serve([], { failList: true })
    const user = userEvent.setup()
    renderBell()
    await user.click(bell())
    expect(await screen.findByText('Failed to load notifications')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('opening with unread ones marks them all read', async () => {
    server = serve([note('n1', false), note('n2', true)])
    const user = userEvent.setup()
    const { store } = renderBell()
    await screen.findByRole('button', { name: 'Notifications, 1 unread' })
    await waitFor(() => expect(listOf(store)).toBeDefined())
    await user.click(bell())
    await waitFor(() => expect(server?.calls).toContain('PATCH /api/notifications/mark-all-read'))
    expect(
      await screen.findByRole('button', { name: 'Notifications, no unread notifications' }),
    ).toBeInTheDocument()
    // What was new when it opened stays highlighted while it is open.
    expect((await screen.findByText('Message n1')).closest('button')).toHaveClass('is-unread')
    expect(screen.getByText('Message n2').closest('button')).not.toHaveClass('is-unread')
  })

  it('opening with nothing unread sends no mark-all-read', async () => {
    server = serve([note('n1', true)])
    const user = userEvent.setup()
    renderBell()
    await screen.findByRole('button', { name: 'Notifications, no unread notifications' })
    await user.click(bell())
    await screen.findByText('Message n1')
    expect(server.calls).not.toContain('PATCH /api/notifications/mark-all-read')
  })

  it('offers "Load More" only when there are more pages, and appends the next page', async () => {
    const many = Array.from({ length: 12 }, (_, i) => note(`n${i + 1}`, true))
    server = serve(many)
    const user = userEvent.setup()
    renderBell()
    await user.click(bell())
    await screen.findByText('Message n10')
    expect(screen.queryByText('Message n11')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Load More' }))
    expect(await screen.findByText('Message n12')).toBeInTheDocument()
    expect(screen.getAllByRole('listitem')).toHaveLength(12)
    expect(server.calls).toContain('GET /api/notifications?page=2&limit=10')
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument(),
    )
  })

  it('"Clear Read" removes the read ones', async () => {
    server = serve([note('n1', true), note('n2', true)])
    const user = userEvent.setup()
    renderBell()
    await user.click(bell())
    await screen.findByText('Message n1')
    await user.click(screen.getByRole('button', { name: 'Clear Read' }))
    expect(await screen.findByText('No notifications')).toBeInTheDocument()
    expect(server.calls).toContain('DELETE /api/notifications/clear-read')
  })

  it('a click outside closes the dropdown', async () => {
    server = serve([note('n1', true)])
    const user = userEvent.setup()
    renderBell()
    await user.click(bell())
    await screen.findByText('Message n1')
    await user.click(screen.getByText('Elsewhere'))
    expect(screen.queryByText('Message n1')).not.toBeInTheDocument()
    expect(bell()).toHaveAttribute('aria-expanded', 'false')
  })

  it('a live notification goes on top with the count the server sent; a click marks it read', async () => {
    server = serve([note('n1', true)])
    const user = userEvent.setup()
    renderBell()
    await user.click(bell())
    await screen.findByText('Message n1')

    const socket = lastSocket()
    act(() => {
      socket.serverSends('connect')
      socket.serverSends('notification', { notification: note('n9', false), count: 1 })
    })
    expect(socket.emittedNamed('authenticate')).toEqual([['authenticate', sampleUser._id]])
    expect(bell()).toHaveAccessibleName('Notifications, 1 unread')
    const items = screen.getAllByRole('listitem')
    expect(
      within(items[0] as HTMLElement)
        .getByText('Message n9')
        .closest('button'),
    ).toHaveClass('is-unread')

    await user.click(screen.getByText('Message n9'))
    await waitFor(() => expect(server?.calls).toContain('PATCH /api/notifications/n9/read'))
    expect(bell()).toHaveAccessibleName('Notifications, no unread notifications')
  })

  it('reads the request lists again when a live notice tells of a step of a request', async () => {
    server = serve([])
    // A request list as the requests pages hold it: its own endpoint, the same tag.
    const lists = api.injectEndpoints({
      endpoints: (build) => ({
        requestListForTest: build.query<unknown, void>({
          query: () => '/api/notifications/unread-count',
          providesTags: ['PostRequests'],
        }),
      }),
    })
    const { store } = renderBell()
    await screen.findByRole('button', { name: 'Notifications, no unread notifications' })
    const subscription = store.dispatch(lists.endpoints.requestListForTest.initiate())
    await subscription
    const reads = () =>
      server!.calls.filter((call) => call === 'GET /api/notifications/unread-count').length
    const before = reads()
    act(() => {
      lastSocket().serverSends('notification', {
        notification: { ...note('n7', false), kind: 'post-request' as const },
        count: 1,
      })
    })
    await waitFor(() => expect(reads()).toBe(before + 1))
    // A favorite is no step of a request: nothing is read again.
    act(() => {
      lastSocket().serverSends('notification', {
        notification: { ...note('n8', false), kind: 'post-favorite' as const },
        count: 2,
      })
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(reads()).toBe(before + 1)
    subscription.unsubscribe()
  })

  it('announces a live notification briefly while the dropdown is closed', async () => {
    server = serve([])
    renderBell()
    await screen.findByRole('button', { name: 'Notifications, no unread notifications' })
    act(() => {
      lastSocket().serverSends('notification', {
        notification: note('n5', false, 'Mia Member saved your post'),
        count: 1,
      })
    })
    expect(screen.getByRole('status')).toHaveTextContent('Mia Member saved your post')
  })

  it('a repeated push is neither announced again nor sets the count back', async () => {
    server = serve([])
    renderBell()
    await screen.findByRole('button', { name: 'Notifications, no unread notifications' })
    const socket = lastSocket()
    act(() => {
      socket.serverSends('notification', { notification: note('n5', false, 'First'), count: 1 })
      socket.serverSends('notification', { notification: note('n6', false, 'Second'), count: 2 })
      socket.serverSends('notification', { notification: note('n5', false, 'First'), count: 1 })
    })
    expect(bell()).toHaveAccessibleName('Notifications, 2 unread')
    expect(screen.getByRole('status')).toHaveTextContent('Second')
  })

  it('reads the list and the count again after the live connection came back', async () => {
    server = serve([note('n1', true)])
    renderBell()
    await screen.findByRole('button', { name: 'Notifications, no unread notifications' })
    const countReads = () =>
      server?.calls.filter((call) => call === 'GET /api/notifications/unread-count').length
    const socket = lastSocket()
    act(() => socket.serverSends('connect'))
    expect(countReads()).toBe(1)
    act(() => {
      socket.serverSends('disconnect', 'transport close')
      socket.serverSends('connect')
    })
    await waitFor(() => expect(countReads()).toBe(2))
    expect(server.calls.filter((call) => call.startsWith('GET /api/notifications?'))).toHaveLength(
      2,
    )
  })

  it('hands a renewed token to the open socket (no reconnection) and closes it on sign-out', async () => {
    server = serve([])
    const { store } = renderBell()
    // socket.io-client is imported on demand: the socket exists once that import settled.
    const first = await waitFor(() => lastSocket())
    const tokenSent = () => {
      let sent: unknown
      ;(first.options.auth as (send: (data: unknown) => void) => void)((data) => (sent = data))
      return sent
    }
    expect(tokenSent()).toEqual({ token: 'token' })
    act(() => first.serverSends('connect'))
    act(() => {
      store.dispatch(credentialsReceived({ user: sampleUser, accessToken: 'renewed' }))
    })
    // The server closes a socket at its token's expiry unless it re-authenticates.
    expect(first.disconnected).toBe(false)
    expect(first.emittedNamed('reauthenticate')).toEqual([['reauthenticate', { token: 'renewed' }]])
    expect(tokenSent()).toEqual({ token: 'renewed' })
    act(() => {
      store.dispatch(signedOut())
    })
    expect(first.disconnected).toBe(true)
    expect(sockets).toHaveLength(1)
  })
})
