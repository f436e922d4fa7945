import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import NotificationPreferencesPage from '@/features/settings/notification-preferences/NotificationPreferencesPage'
import { renderPage } from '@/test/settings-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'

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
  })

  it('shows the channels and types with their descriptions and the saved values', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, saved))
    renderPage(<NotificationPreferencesPage />)
    expect(await screen.findByRole('switch', { name: 'Email Notifications' })).toBeChecked()
    expect(screen.getByRole('switch', { name: 'Mobile Notifications' })).not.toBeChecked()
    expect(screen.getByText(/push notifications are not offered yet/)).toBeInTheDocument()
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
    fetchStub = stubFetch((_path, request) =>
      request.method === 'PUT'
        ? new Promise<Response>((resolve) => {
            answer = resolve
          })
        : jsonResponse(200, saved),
    )
    renderPage(<NotificationPreferencesPage />)
    const email = await screen.findByRole('switch', { name: 'Email Notifications' })
    await waitFor(() => expect(email).toBeEnabled())
    await userEvent.click(email)
    expect(email).not.toBeChecked()
    answer(jsonResponse(500, { message: 'down' }))
    expect(await screen.findByText('Failed to update notification preferences')).toBeInTheDocument()
    expect(email).toBeChecked()
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
