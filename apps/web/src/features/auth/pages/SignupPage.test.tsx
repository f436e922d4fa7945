import { fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import SignupPage from '@/features/auth/pages/SignupPage'
import { jsonResponse, renderRoutes, stubFetch } from '@/test/helpers'

function VerifyProbe() {
  const location = useLocation()
  return <p>verify page for {(location.state as { email?: string } | null)?.email}</p>
}

const renderSignup = () =>
  renderRoutes(
    [
      { path: '/signup', element: <SignupPage /> },
      { path: '/verify', element: <VerifyProbe /> },
    ],
    { at: '/signup' },
  )

const submitButton = () => screen.getByRole('button', { name: 'Create my account' })

async function fillValidForm(user: ReturnType<typeof userEvent.setup>, except?: string) {
  const values: Record<string, string> = {
    'First name': 'Ava',
    'Last name': 'Turner',
    Email: 'Ava@Example.test',
    'Phone number': '1234567890',
    Password: 'Secret1!x',
    'Confirm password': 'Secret1!x',
  }
  for (const [label, value] of Object.entries(values)) {
    if (label !== except) await user.type(screen.getByLabelText(label), value)
  }
  if (except !== 'Date of birth') {
    fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '1990-05-17' } })
  }
  if (except !== 'terms') {
    await user.click(screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ }))
  }
}

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => fetchStub?.restore())

describe('SignupPage', () => {
  it('keeps "Create my account" disabled until every rule passes', async () => {
    const user = userEvent.setup()
    renderSignup()
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument()
    expect(submitButton()).toBeDisabled()
    await fillValidForm(user, 'terms')
    expect(submitButton()).toBeDisabled()
    await user.click(screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ }))
    expect(submitButton()).toBeEnabled()
    await user.type(screen.getByLabelText('Confirm password'), 'x')
    expect(submitButton()).toBeDisabled()
  })

  it('formats the phone number while typing', async () => {
    const user = userEvent.setup()
    renderSignup()
    const phone = screen.getByLabelText('Phone number')
    await user.type(phone, '1234567')
    expect(phone).toHaveValue('(123) 456-7')
    await user.type(phone, '890')
    expect(phone).toHaveValue('(123) 456-7890')
  })

  it('shows the field hints, the terms link and the login link', () => {
    renderSignup()
    expect(
      screen.getAllByText('Must begin with a letter. Letters and hyphens allowed.'),
    ).toHaveLength(2)
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument()
    expect(screen.getByText('Please enter a valid phone number.')).toBeInTheDocument()
    expect(screen.getByText('You must be at least 18 years old to register.')).toBeInTheDocument()
    expect(screen.getByText('Must match the first password input field.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms')
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
  })

  it('a failed submit shows the specific message, cleared when a field changes', async () => {
    const user = userEvent.setup()
    const { container } = renderSignup()
    await fillValidForm(user, 'terms')
    fireEvent.submit(container.querySelector('form')!)
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You must agree to the Terms of Service',
    )
    await user.type(screen.getByLabelText('First name'), 'x')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('names the first failed rule: an underage person', async () => {
    const user = userEvent.setup()
    const { container } = renderSignup()
    await fillValidForm(user, 'Date of birth')
    const nextYear = new Date().getFullYear() - 1
    fireEvent.change(screen.getByLabelText('Date of birth'), {
      target: { value: `${nextYear}-01-01` },
    })
    fireEvent.submit(container.querySelector('form')!)
    expect(await screen.findByRole('alert')).toHaveTextContent('You must be at least 18 years old')
  })

  it('answers 409 with "Email already registered"', async () => {
    fetchStub = stubFetch(() => jsonResponse(409, { message: 'Email already registered' }))
    const user = userEvent.setup()
    renderSignup()
    await fillValidForm(user)
    await user.click(submitButton())
    expect(await screen.findByRole('alert')).toHaveTextContent('Email already registered')
  })

  it('answers another failure with "Registration Failed" and no answer with "No Server Response"', async () => {
    fetchStub = stubFetch(() => jsonResponse(500, { message: 'boom' }))
    const user = userEvent.setup()
    renderSignup()
    await fillValidForm(user)
    await user.click(submitButton())
    expect(await screen.findByRole('alert')).toHaveTextContent('Registration Failed')
    fetchStub.spy.mockRejectedValue(new TypeError('network down'))
    await user.click(submitButton())
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('No Server Response'))
  })

  it('sends the payload and goes to /verify with the email', async () => {
    let body: Record<string, unknown> = {}
    fetchStub = stubFetch(async (url, request) => {
      expect(url).toBe('/api/auth/signup')
      body = (await request.json()) as Record<string, unknown>
      return jsonResponse(201, { message: 'Account created.', email: 'ava@example.test' })
    })
    const user = userEvent.setup()
    renderSignup()
    await fillValidForm(user)
    await user.selectOptions(screen.getByLabelText(/Interested in/), 'Both')
    await user.click(submitButton())
    expect(await screen.findByText('verify page for ava@example.test')).toBeInTheDocument()
    expect(body).toEqual({
      firstname: 'Ava',
      lastname: 'Turner',
      email: 'Ava@Example.test',
      phoneNumber: '(123) 456-7890',
      password: 'Secret1!x',
      dateOfBirth: '1990-05-17',
      interest: 'Both',
      emailPreferences: false,
      termsAgreed: true,
    })
  })
})
