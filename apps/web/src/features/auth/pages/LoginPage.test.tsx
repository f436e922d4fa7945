import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import LoginPage from '@/features/auth/pages/LoginPage'
import { jsonResponse, renderRoutes, sampleUser, stubFetch } from '@/test/helpers'
import { readPersistFlag } from '@/lib/persist'
import { SESSION_ENDED_MESSAGES } from '@/lib/session-expiry'
import { signedOut } from '@/lib/auth-slice'
import { createStore, type AppStore } from '@/app/store'

function Where({ name }: { name: string }) {
  const location = useLocation()
  return (
    <p>
      {name} {JSON.stringify(location.state)}
    </p>
  )
}

const renderLogin = (state?: unknown, store?: AppStore) =>
  renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/', element: <Where name="home page" /> },
      { path: '/settings-account', element: <Where name="account page" /> },
      { path: '/verify', element: <Where name="verify page" /> },
    ],
    { at: '/login', state, store },
  )

async function logIn(keepSignedIn = false) {
  const user = userEvent.setup()
  await user.type(screen.getByLabelText('Email'), 'ava@example.test')
  await user.type(screen.getByLabelText('Password'), 'Secret1!x')
  if (keepSignedIn) await user.click(screen.getByRole('checkbox', { name: 'Keep me signed in' }))
  await user.click(screen.getByRole('button', { name: 'Log in' }))
}

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => {
  fetchStub?.restore()
  localStorage.clear()
})

describe('LoginPage', () => {
  it('offers the forgot-password and sign-up links', () => {
    renderLogin()
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    )
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/signup',
    )
  })

  it('shows and hides the password', async () => {
    const user = userEvent.setup()
    renderLogin()
    const password = screen.getByLabelText('Password')
    expect(password).toHaveAttribute('type', 'password')
    await user.click(screen.getByRole('button', { name: 'Show password' }))
    expect(password).toHaveAttribute('type', 'text')
    await user.click(screen.getByRole('button', { name: 'Hide password' }))
    expect(password).toHaveAttribute('type', 'password')
  })

  it.each([
    [400, 'Missing email or password'],
    [401, 'Invalid email or password'],
    [404, 'User not found'],
    [500, 'Login failed'],
  ])('a %i answer shows "%s"', async (status, text) => {
    fetchStub = stubFetch(() => jsonResponse(status, { message: 'server text', code: 'X' }))
    renderLogin()
    await logIn()
    expect(await screen.findByRole('alert')).toHaveTextContent(text)
  })

  it('no answer shows "No server response"', async () => {
    fetchStub = stubFetch(() => Promise.reject(new TypeError('network down')))
    renderLogin()
    await logIn()
    expect(await screen.findByRole('alert')).toHaveTextContent('No server response')
  })

  it('an answer without a token is treated as an invalid login', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, { user: sampleUser }))
    const { store } = renderLogin()
    await logIn()
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password')
    expect(store.getState().auth.user).toBeNull()
  })

  it('stores the user, writes the persist flag and returns to where the person came from', async () => {
    let body: unknown
    fetchStub = stubFetch(async (url, request) => {
      expect(url).toBe('/api/auth/direct-login')
      body = await request.json()
      return jsonResponse(200, { user: sampleUser, accessToken: 'jwt' })
    })
    const { store } = renderLogin({ from: { pathname: '/settings-account' } })
    await logIn(true)
    expect(await screen.findByText(/account page/)).toBeInTheDocument()
    expect(store.getState().auth).toMatchObject({ user: sampleUser, accessToken: 'jwt' })
    expect(readPersistFlag()).toBe(true)
    expect(body).toEqual({ email: 'ava@example.test', password: 'Secret1!x', persist: true })
  })

  it('says why a session that ended by itself brought the user here, then returns them to their page', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, { user: sampleUser, accessToken: 'jwt' }))
    const ended = createStore()
    ended.dispatch(signedOut('expired'))
    const { store } = renderLogin(
      { from: { pathname: '/settings-account', search: '', hash: '' } },
      ended,
    )
    expect(screen.getByRole('status')).toHaveTextContent(SESSION_ENDED_MESSAGES.expired)
    await logIn(false)
    expect(await screen.findByText(/account page/)).toBeInTheDocument()
    expect(store.getState().auth.ended).toBeNull()
  })

  it('says nothing about a session to a user who simply came to log in, or signed out', () => {
    const signedOutStore = createStore()
    signedOutStore.dispatch(signedOut())
    renderLogin({ from: { pathname: '/settings-account' } }, signedOutStore)
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
  })

  it('goes home without a `from`, and leaves the persist flag off unless asked', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, { user: sampleUser, accessToken: 'jwt' }))
    renderLogin()
    await logIn(false)
    expect(await screen.findByText(/home page/)).toBeInTheDocument()
    expect(readPersistFlag()).toBe(false)
  })

  it('an unverified account gets the server message and a way to verify', async () => {
    const message =
      'Please verify your email before logging in. Enter the code we sent you, or ask for a new one.'
    fetchStub = stubFetch(() => jsonResponse(403, { message, code: 'EMAIL_NOT_VERIFIED' }))
    renderLogin()
    await logIn()
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
    await userEvent.setup().click(screen.getByRole('button', { name: 'Verify my email' }))
    expect(await screen.findByText('verify page {"email":"ava@example.test"}')).toBeInTheDocument()
  })

  it('an account pending deletion can be kept, which signs the person in', async () => {
    fetchStub = stubFetch((url) =>
      url === '/api/auth/keep-account'
        ? jsonResponse(200, { user: sampleUser, accessToken: 'jwt' })
        : jsonResponse(403, {
            message: 'scheduled for deletion',
            code: 'ACCOUNT_DELETION_PENDING',
          }),
    )
    const { store } = renderLogin()
    await logIn()
    expect(await screen.findByRole('alert')).toHaveTextContent('scheduled for deletion')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Keep my account' }))
    expect(await screen.findByText(/home page/)).toBeInTheDocument()
    expect(store.getState().auth.accessToken).toBe('jwt')
  })
})

describe('LoginPage with two-step sign-in', () => {
  it('asks for the mailed code, and signs in only when the server accepts it', async () => {
    const user = userEvent.setup()
    const verified: unknown[] = []
    fetchStub = stubFetch(async (path, request) => {
      if (path === '/api/auth/direct-login')
        return jsonResponse(202, {
          twoStepRequired: true,
          challengeId: 'challenge-1',
          methods: ['email'],
          expiresAt: '2030-01-01T00:00:00.000Z',
          emailCodeSent: true,
        })
      const body = (await request.json()) as { code: string }
      verified.push(body)
      return body.code === '123456'
        ? jsonResponse(200, { user: sampleUser, accessToken: 'token' })
        : jsonResponse(400, { message: 'Incorrect code. 4 attempts left.', code: 'CODE_WRONG' })
    })
    renderLogin()
    await logIn()
    const field = await screen.findByLabelText('Code from your email')
    await user.type(field, '000000')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect code. 4 attempts left.')
    await user.clear(field)
    await user.type(field, '123456')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByText(/home page/)).toBeInTheDocument()
    expect(verified).toEqual([
      { challengeId: 'challenge-1', method: 'email', code: '000000' },
      { challengeId: 'challenge-1', method: 'email', code: '123456' },
    ])
  })

  it('"Keep my account" with two-step on asks for the code before signing in', async () => {
    const user = userEvent.setup()
    const calls: string[] = []
    fetchStub = stubFetch((path) => {
      calls.push(path)
      if (path === '/api/auth/direct-login')
        return jsonResponse(403, {
          message: 'scheduled for deletion',
          code: 'ACCOUNT_DELETION_PENDING',
        })
      if (path === '/api/auth/keep-account')
        return jsonResponse(202, {
          twoStepRequired: true,
          challengeId: 'challenge-keep',
          methods: ['email'],
          expiresAt: '2030-01-01T00:00:00.000Z',
          emailCodeSent: true,
        })
      return jsonResponse(200, { user: sampleUser, accessToken: 'kept' })
    })
    const { store } = renderLogin()
    await logIn()
    await user.click(await screen.findByRole('button', { name: 'Keep my account' }))
    const field = await screen.findByLabelText('Code from your email')
    expect(store.getState().auth.accessToken).toBeNull()
    await user.type(field, '123456')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByText(/home page/)).toBeInTheDocument()
    expect(store.getState().auth.accessToken).toBe('kept')
    expect(calls).toEqual([
      '/api/auth/direct-login',
      '/api/auth/keep-account',
      '/api/auth/two-step/verify',
    ])
  })

  it('offers the authenticator first, and a recovery code', async () => {
    const user = userEvent.setup()
    fetchStub = stubFetch(() =>
      jsonResponse(202, {
        twoStepRequired: true,
        challengeId: 'c',
        methods: ['authenticator', 'email'],
        expiresAt: '2030-01-01T00:00:00.000Z',
        emailCodeSent: false,
      }),
    )
    renderLogin()
    await logIn()
    expect(await screen.findByLabelText('Code from your authenticator app')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Email me a code' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }))
    expect(screen.getByLabelText('Recovery code')).toBeInTheDocument()
  })
})
