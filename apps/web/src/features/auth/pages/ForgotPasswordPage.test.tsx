import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import ForgotPasswordPage from '@/features/auth/pages/ForgotPasswordPage'
import { jsonResponse, renderRoutes, stubFetch } from '@/test/helpers'

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => fetchStub?.restore())

const renderPage = () =>
  renderRoutes([{ path: '/forgot-password', element: <ForgotPasswordPage /> }], {
    at: '/forgot-password',
  })

describe('ForgotPasswordPage', () => {
  it('moves to the code step once the code is sent, then changes the password', async () => {
    const bodies: unknown[] = []
    fetchStub = stubFetch(async (url, request) => {
      bodies.push({ url, body: await request.json() })
      return url === '/api/auth/forgot-password'
        ? jsonResponse(200, { message: 'If an account exists for this email, a code was sent.' })
        : jsonResponse(200, { message: 'Password changed successfully' })
    })
    const user = userEvent.setup()
    renderPage()
    expect(screen.getByRole('link', { name: 'back to login' })).toHaveAttribute('href', '/login')
    await user.type(screen.getByLabelText('Email'), 'ava@example.test')
    await user.click(screen.getByRole('button', { name: 'send reset code' }))

    await user.type(await screen.findByLabelText('Reset code'), '123456')
    await user.type(screen.getByLabelText('New password'), 'Newpass1!')
    await user.click(screen.getByRole('button', { name: 'confirm password reset' }))
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument()
    expect(bodies).toEqual([
      { url: '/api/auth/forgot-password', body: { email: 'ava@example.test' } },
      {
        url: '/api/auth/confirm-password-reset',
        body: { email: 'ava@example.test', code: '123456', newPassword: 'Newpass1!' },
      },
    ])
  })

  it('shows the server message, or "An error occurred" without one', async () => {
    fetchStub = stubFetch(() => jsonResponse(400, { message: 'Invalid Email Address' }))
    const user = userEvent.setup()
    renderPage()
    await user.type(screen.getByLabelText('Email'), 'nope')
    await user.click(screen.getByRole('button', { name: 'send reset code' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid Email Address')
    fetchStub.spy.mockRejectedValue(new TypeError('network down'))
    await user.click(screen.getByRole('button', { name: 'send reset code' }))
    expect(await screen.findByText('An error occurred')).toBeInTheDocument()
  })
})
