import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import OthersPage from '@/features/settings/others/OthersPage'
import { renderPage } from '@/test/settings-helpers'
import { jsonResponse, stubFetch, withRenewal } from '@/test/helpers'
import { decorativeIcon } from '@/test/icons'

describe('others page (account deletion)', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  let alertSpy: jest.SpyInstance
  beforeEach(() => {
    alertSpy = jest.spyOn(window, 'alert').mockImplementation(() => {})
  })
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
    alertSpy.mockRestore()
  })

  it('shows the benefits, the tooltip and the way back during the grace period', async () => {
    renderPage(<OthersPage />)
    expect(screen.getByRole('heading', { name: /Before You Go\.\.\./ })).toBeInTheDocument()
    for (const title of [
      '100% Free Platform',
      'Smart Notifications',
      'Direct Connections',
      'Personalized Posts',
      'Save Favorites',
      'Distraction-Free',
    ]) {
      const heading = screen.getByRole('heading', { name: title })
      // Each card's icon is the app's own SVG, not an emoji.
      decorativeIcon(heading.closest('li')!)
      expect(heading.closest('li')).not.toHaveTextContent(/\p{Extended_Pictographic}/u)
    }
    await userEvent.hover(screen.getByRole('button', { name: 'More information' }))
    expect(screen.getByRole('tooltip')).toHaveTextContent(
      "We'd hate to see you leave. Here are some amazing features you might miss out on. Stay with us!",
    )
    expect(screen.getByText(/30-day grace period/)).toBeInTheDocument()
    expect(screen.getByText('Keep my account')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Return to Homepage' })).toHaveAttribute('href', '/')
  })

  it('asks for confirmation and goes back to the button on Cancel', async () => {
    renderPage(<OthersPage />)
    await userEvent.click(screen.getByRole('button', { name: 'I still want to delete my account' }))
    const dialog = screen.getByRole('dialog', { name: 'Are you absolutely sure?' })
    expect(dialog).toHaveTextContent(
      'This action cannot be undone. All your data will be permanently deleted.',
    )
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it("shows the server's message, or the fallback, in the box when deletion fails", async () => {
    // A new Response per call: after the renewal the request is sent again.
    let answer = () => jsonResponse(403, { message: 'You can only change your own account' })
    fetchStub = stubFetch(withRenewal(() => answer()))
    renderPage(<OthersPage />)
    await userEvent.click(screen.getByRole('button', { name: 'I still want to delete my account' }))
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete my account' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You can only change your own account',
    )
    answer = () => jsonResponse(400, {})
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete my account' }))
    expect(
      await screen.findByText('An error occurred while deleting your account'),
    ).toBeInTheDocument()
    expect(alertSpy).not.toHaveBeenCalled()
  })

  it('reads "Deleting..." while busy, then signs out, goes home and says the account is deleted', async () => {
    let answer: (response: Response) => void = () => {}
    const paths: string[] = []
    fetchStub = stubFetch((path, request) => {
      paths.push(`${request.method} ${path}`)
      if (path === '/logout') return new Response(null, { status: 204 })
      return new Promise<Response>((resolve) => {
        answer = resolve
      })
    })
    const { store, router } = renderPage(<OthersPage />)
    await userEvent.click(screen.getByRole('button', { name: 'I still want to delete my account' }))
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete my account' }))
    expect(await screen.findByRole('button', { name: 'Deleting...' })).toBeDisabled()
    answer(
      jsonResponse(200, {
        message: 'Your account has been successfully deleted.',
        purgeAfter: '2026-12-23T00:00:00.000Z',
      }),
    )
    expect(await screen.findByText('Home page')).toBeInTheDocument()
    // The deletion, then GET /logout so the server clears the HttpOnly session cookies.
    await waitFor(() => expect(paths).toEqual(['DELETE /api/users/u1', 'GET /logout']))
    expect(router.state.location.pathname).toBe('/')
    expect(store.getState().auth.user).toBeNull()
    expect(store.getState().auth.accessToken).toBeNull()
    expect(alertSpy).toHaveBeenCalledWith('Your account has been successfully deleted.')
  })

  it('asks to log in again when there is no user id', async () => {
    renderPage(<OthersPage />, { user: null })
    await userEvent.click(screen.getByRole('button', { name: 'I still want to delete my account' }))
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete my account' }))
    expect(screen.getByRole('alert')).toHaveTextContent('User ID not found. Please log in again.')
  })
})
