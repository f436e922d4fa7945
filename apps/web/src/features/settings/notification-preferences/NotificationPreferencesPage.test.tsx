import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import NotificationPreferencesPage from '@/features/settings/notification-preferences/NotificationPreferencesPage'
import { renderPage } from '@/test/settings-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'

// The browser's side of Web Push (permission prompt, service worker, PushManager) has no
// jsdom equivalent: the page is tested against what it asks of it.
const mockWebPush = {
  subscribeThisDevice: jest.fn(),
  unsubscribeThisDevice: jest.fn(),
}
jest.mock('@/lib/web-push', () => mockWebPush)

const PUBLIC_KEY = 'BPublicKeyOfTheServer'
const deviceSubscription = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/this-device',
  expirationTime: null,
  keys: { p256dh: 'BDevicePublicKey', auth: 'device-auth' },
}

const saved = {
  emailEnabled: true,
  mobileEnabled: false,
  postRequestsEnabled: true,
  postFavoritesEnabled: true,
  requestStatusEnabled: true,
}

describe('notification preferences page', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
    mockWebPush.subscribeThisDevice.mockReset()
    mockWebPush.unsubscribeThisDevice.mockReset()
  })

  /** The server as the push switch talks to it, recording every call but the first GET. */
  function pushServer(initial: Record<string, boolean>) {
    const calls: Array<{ method: string; path: string; body: unknown }> = []
    fetchStub = stubFetch(async (path, request) => {
      const body = request.method === 'GET' ? undefined : await request.json()
      if (path === '/api/notifications/push/public-key') {
        return jsonResponse(200, { publicKey: PUBLIC_KEY })
      }
      if (request.method !== 'GET') calls.push({ method: request.method, path, body })
      if (path === '/api/notifications/push/subscriptions') {
        return jsonResponse(200, request.method === 'POST' ? { devices: 1 } : { removed: true })
      }
      return jsonResponse(200, request.method === 'PUT' ? body : initial)
    })
    return calls
  }

  it('turning Mobile Notifications on asks the permission, subscribes this device, then saves', async () => {
    const calls = pushServer(saved)
    mockWebPush.subscribeThisDevice.mockResolvedValue({
      outcome: 'subscribed',
      subscription: deviceSubscription,
    })
    renderPage(<NotificationPreferencesPage />)
    const mobile = await screen.findByRole('switch', { name: 'Mobile Notifications' })
    await waitFor(() => expect(mobile).toBeEnabled())
    await userEvent.click(mobile)

    expect(await screen.findByText('Notification preferences updated')).toBeInTheDocument()
    expect(mockWebPush.subscribeThisDevice).toHaveBeenCalledWith(PUBLIC_KEY)
    expect(calls).toEqual([
      { method: 'POST', path: '/api/notifications/push/subscriptions', body: deviceSubscription },
      {
        method: 'PUT',
        path: '/api/notifications/preferences',
        body: { ...saved, mobileEnabled: true },
      },
    ])
    expect(mobile).toBeChecked()
  })

  it('leaves Mobile Notifications off and says why when the permission is refused', async () => {
    const calls = pushServer(saved)
    mockWebPush.subscribeThisDevice.mockResolvedValue({ outcome: 'denied' })
    renderPage(<NotificationPreferencesPage />)
    const mobile = await screen.findByRole('switch', { name: 'Mobile Notifications' })
    await waitFor(() => expect(mobile).toBeEnabled())
    await userEvent.click(mobile)

    expect(
      await screen.findByText(
        'Notifications are blocked for this site. Allow them in your browser settings, then turn Mobile Notifications on again.',
      ),
    ).toBeInTheDocument()
    expect(calls).toEqual([])
    expect(mobile).not.toBeChecked()
  })

  it('says so in a browser without push, and saves nothing', async () => {
    const calls = pushServer(saved)
    mockWebPush.subscribeThisDevice.mockResolvedValue({ outcome: 'unsupported' })
    renderPage(<NotificationPreferencesPage />)
    const mobile = await screen.findByRole('switch', { name: 'Mobile Notifications' })
    await waitFor(() => expect(mobile).toBeEnabled())
    await userEvent.click(mobile)
    expect(
      await screen.findByText('This browser cannot receive push notifications.'),
    ).toBeInTheDocument()
    expect(calls).toEqual([])
  })

  it('turning Mobile Notifications off saves it off and unsubscribes this device', async () => {
    const calls = pushServer({ ...saved, mobileEnabled: true })
    mockWebPush.unsubscribeThisDevice.mockResolvedValue(deviceSubscription.endpoint)
    renderPage(<NotificationPreferencesPage />)
    const mobile = await screen.findByRole('switch', { name: 'Mobile Notifications' })
    await waitFor(() => expect(mobile).toBeChecked())
    await userEvent.click(mobile)

    expect(await screen.findByText('Notification preferences updated')).toBeInTheDocument()
    expect(mockWebPush.unsubscribeThisDevice).toHaveBeenCalled()
    expect(calls).toEqual([
      {
        method: 'PUT',
        path: '/api/notifications/preferences',
        body: { ...saved, mobileEnabled: false },
      },
      {
        method: 'DELETE',
        path: '/api/notifications/push/subscriptions',
        body: { endpoint: deviceSubscription.endpoint },
      },
    ])
    expect(mobile).not.toBeChecked()
  })

  it('shows the channels and types with their descriptions and the saved values', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, saved))
    renderPage(<NotificationPreferencesPage />)
    expect(await screen.findByRole('switch', { name: 'Email Notifications' })).toBeChecked()
    expect(screen.getByRole('switch', { name: 'Mobile Notifications' })).not.toBeChecked()
    expect(screen.getByText('Receive push notifications on this device.')).toBeInTheDocument()
    expect(screen.getByText('Someone requests on your post.')).toBeInTheDocument()
    expect(screen.getByText('Someone favorites your post.')).toBeInTheDocument()
    expect(screen.getByText('Your request is accepted.')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Post Requests' })).toBeEnabled())
  })

  it('sends all five flags with the toggled one and confirms with a toast', async () => {
    let sent: unknown = null
    fetchStub = stubFetch(async (_path, request) => {
      if (request.method === 'PUT') {
        sent = await request.json()
        return jsonResponse(200, sent)
      }
      return jsonResponse(200, saved)
    })
    renderPage(<NotificationPreferencesPage />)
    const favorites = await screen.findByRole('switch', { name: 'Post Favorites' })
    await waitFor(() => expect(favorites).toBeEnabled())
    await userEvent.click(favorites)
    expect(await screen.findByText('Notification preferences updated')).toBeInTheDocument()
    expect(sent).toEqual({ ...saved, postFavoritesEnabled: false })
    expect(favorites).not.toBeChecked()
  })

  it('offers "Messages" (on by default) and saves messagesEnabled with the others', async () => {
    let sent: unknown = null
    fetchStub = stubFetch(async (_path, request) => {
      if (request.method === 'PUT') {
        sent = await request.json()
        return jsonResponse(200, sent)
      }
      return jsonResponse(200, { ...saved, messagesEnabled: true })
    })
    renderPage(<NotificationPreferencesPage />)
    const messages = await screen.findByRole('switch', { name: 'Messages' })
    expect(screen.getByText('Someone sends you a message while you are away.')).toBeInTheDocument()
    await waitFor(() => expect(messages).toBeEnabled())
    expect(messages).toBeChecked()
    await userEvent.click(messages)
    expect(await screen.findByText('Notification preferences updated')).toBeInTheDocument()
    expect(sent).toEqual({ ...saved, messagesEnabled: false })
    expect(messages).not.toBeChecked()
  })

  it('moves the switch at once and puts it back when the server refuses', async () => {
    let answer: (response: Response) => void = () => {}
    let failing = false
    let puts = 0
    fetchStub = stubFetch((_path, request) => {
      if (request.method !== 'PUT') return jsonResponse(200, saved)
      puts += 1
      // The first PUT waits, so the switch is seen moved before any answer; once the server
      // fails, the shared client's retries of the idempotent PUT fail too.
      if (failing) return jsonResponse(500, { message: 'down' })
      return new Promise<Response>((resolve) => {
        answer = resolve
      })
    })
    renderPage(<NotificationPreferencesPage />)
    const email = await screen.findByRole('switch', { name: 'Email Notifications' })
    await waitFor(() => expect(email).toBeEnabled())
    await userEvent.click(email)
    expect(email).not.toBeChecked()
    failing = true
    answer(jsonResponse(500, { message: 'down' }))
    expect(
      await screen.findByText('Failed to update notification preferences', undefined, {
        timeout: 5000,
      }),
    ).toBeInTheDocument()
    expect(email).toBeChecked()
    expect(puts).toBe(4)
  })

  it('says so when the preferences cannot be loaded', async () => {
    fetchStub = stubFetch(() => jsonResponse(400, { message: 'nope' }))
    renderPage(<NotificationPreferencesPage />)
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load notification preferences',
    )
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('asks a logged-out visitor to log in before changing anything', async () => {
    renderPage(<NotificationPreferencesPage />, { user: null })
    await userEvent.click(screen.getByRole('switch', { name: 'Request Status' }))
    expect(screen.getByText('Please log in to update your preferences')).toBeInTheDocument()
  })
})
