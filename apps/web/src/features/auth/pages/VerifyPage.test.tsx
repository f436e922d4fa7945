import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import VerifyPage from '@/features/auth/pages/VerifyPage'
import { jsonResponse, renderRoutes, stubFetch } from '@/test/helpers'

const renderVerify = (state?: unknown) =>
  renderRoutes(
    [
      { path: '/verify', element: <VerifyPage /> },
      { path: '/signup', element: <p>signup page</p> },
      { path: '/login', element: <p>login page</p> },
    ],
    { at: '/verify', state },
  )

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => {
  fetchStub?.restore()
  jest.useRealTimers()
})

async function submitCode(code = '123456') {
  const user = userEvent.setup()
  await user.type(screen.getByLabelText('Verification code'), code)
  await user.click(screen.getByRole('button', { name: 'Verify Email' }))
}

describe('VerifyPage', () => {
  it('sends a visitor without an email in navigation state to /signup', () => {
    renderVerify()
    expect(screen.getByText('signup page')).toBeInTheDocument()
  })

  it('shows the form for the email it was given', () => {
    renderVerify({ email: 'ava@example.test' })
    expect(screen.getByRole('heading', { name: 'Email Verification' })).toBeInTheDocument()
    expect(screen.getByText('ava@example.test')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Resend Code' })).toBeInTheDocument()
  })

  it('a 400 shows the server message', async () => {
    fetchStub = stubFetch(() =>
      jsonResponse(400, { message: 'Incorrect code. 4 attempts left.', code: 'CODE_WRONG' }),
    )
    renderVerify({ email: 'ava@example.test' })
    await submitCode()
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect code. 4 attempts left.')
  })

  it('another failure shows "Verification Failed", no answer "No Server Response"', async () => {
    fetchStub = stubFetch(() => jsonResponse(500, { message: 'boom' }))
    renderVerify({ email: 'ava@example.test' })
    await submitCode()
    expect(await screen.findByRole('alert')).toHaveTextContent('Verification Failed')
    fetchStub.spy.mockRejectedValue(new TypeError('network down'))
    await userEvent.setup().click(screen.getByRole('button', { name: 'Verify Email' }))
    expect(await screen.findByText('No Server Response')).toBeInTheDocument()
  })

  it('success announces it and goes to /login after 2000 ms', async () => {
    let body: unknown
    fetchStub = stubFetch(async (_url, request) => {
      body = await request.json()
      return jsonResponse(200, { message: 'Email verified successfully' })
    })
    renderVerify({ email: 'ava@example.test' })
    await submitCode()
    expect(
      await screen.findByText('Email verified successfully! Redirecting to login...'),
    ).toBeInTheDocument()
    expect(body).toEqual({ email: 'ava@example.test', code: '123456' })
    expect(screen.queryByText('login page')).not.toBeInTheDocument()
    expect(await screen.findByText('login page', {}, { timeout: 3000 })).toBeInTheDocument()
  })

  it('resend reports success and failure', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, { message: 'sent' }))
    renderVerify({ email: 'ava@example.test' })
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Resend Code' }))
    expect(
      await screen.findByText('New verification code has been sent to your email.'),
    ).toBeInTheDocument()
    fetchStub.spy.mockResolvedValue(jsonResponse(503, { message: 'mail down' }))
    await user.click(screen.getByRole('button', { name: 'Resend Code' }))
    expect(await screen.findByText('Failed to resend verification code.')).toBeInTheDocument()
  })
})
