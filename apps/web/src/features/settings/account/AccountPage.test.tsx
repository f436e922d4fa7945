import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import AccountPage from '@/features/settings/account/AccountPage'
import { renderPage, selfProfile } from '@/test/settings-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'

describe('account page', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  function stubAccount(overrides: { put?: (body: unknown) => Response } = {}) {
    const calls: Array<{ method: string; path: string; body: unknown }> = []
    let profile = { ...selfProfile }
    fetchStub = stubFetch(async (path, request) => {
      const body = request.method === 'GET' ? undefined : await request.json()
      calls.push({ method: request.method, path, body })
      if (path === '/api/users/u1' && request.method === 'GET') return jsonResponse(200, profile)
      if (path === '/api/users/u1' && request.method === 'PUT') {
        if (overrides.put) return overrides.put(body)
        profile = { ...profile, ...(body as object) }
        return jsonResponse(200, profile)
      }
      if (path === '/api/auth/change-password') {
        return jsonResponse(200, {
          message: 'Password changed successfully',
          accessToken: 'fresh-token',
          user: { ...selfProfile, roles: ['2000'] },
          roles: ['2000'],
        })
      }
      return jsonResponse(404, { message: 'not stubbed' })
    })
    return calls
  }

  it('asks a logged-out visitor to log in', () => {
    renderPage(<AccountPage />, { user: null })
    expect(screen.getByText('Please log in to view your account.')).toBeInTheDocument()
  })

  it('shows name, read-only email and phone, and the password fields only while editing', async () => {
    stubAccount()
    renderPage(<AccountPage />)
    await screen.findByRole('button', { name: 'Edit my account' })
    expect(screen.getByLabelText('Name')).toHaveValue('Ava Turner')
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly')
    expect(screen.getByLabelText('Phone Number')).toHaveValue('(123) 456-7890')
    expect(screen.queryByLabelText('Current Password')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Edit my account' }))
    expect(screen.getByLabelText('Current Password')).toBeInTheDocument()
    expect(screen.getByLabelText('New Password')).toBeInTheDocument()
    expect(screen.getByLabelText('Confirm Password')).toBeInTheDocument()
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly')
  })

  it('shows the home place section with the first render, and fills its field in the same element when the account comes', async () => {
    // The account's answer waits until the test gives it.
    let answer: (response: Response) => void = () => undefined
    const account = new Promise<Response>((resolve) => (answer = resolve))
    const asked: string[] = []
    fetchStub = stubFetch((path) => {
      asked.push(path)
      return account
    })
    renderPage(<AccountPage />)
    expect(screen.getByRole('status')).toHaveTextContent('Loading...')
    // The account form is there at its size, its fields empty and disabled but the email,
    // which the session knows: nothing below it moves when the account comes.
    const name = screen.getByLabelText('Name')
    expect(name).toBeDisabled()
    expect(name).toHaveValue('')
    expect(screen.getByLabelText('Email')).toHaveValue(selfProfile.email)
    const field = screen.getByLabelText('Town or ZIP code')
    expect(field).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Save home place' })).toBeDisabled()
    const hint = screen.getByText(/The feed shows what is within your chosen distance of it/)
    answer(jsonResponse(200, { ...selfProfile, homePlace: 'Austin, TX' }))
    await waitFor(() => expect(asked).toEqual(['/api/users/u1']))
    await screen.findByRole('button', { name: 'Edit my account' })
    expect(screen.getByLabelText('Name')).toHaveValue('Ava Turner')
    // The same elements, not new ones: what was painted first stays painted.
    expect(screen.getByLabelText('Town or ZIP code')).toBe(field)
    expect(screen.getByText(/The feed shows what is within your chosen distance of it/)).toBe(hint)
    expect(field).toBeEnabled()
    expect(field).toHaveValue('Austin, TX')
  })

  it('splits the name on whitespace: first word first name, the rest last name', async () => {
    const calls = stubAccount()
    const { store } = renderPage(<AccountPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Edit my account' }))
    const name = screen.getByLabelText('Name')
    await userEvent.clear(name)
    await userEvent.type(name, '  Mary   Ann Smith-Jones ')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true))
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      firstName: 'Mary',
      lastName: 'Ann Smith-Jones',
      phoneNumber: '(123) 456-7890',
    })
    // Saving leaves edit mode; the top bar follows the new name.
    expect(await screen.findByRole('button', { name: 'Edit my account' })).toBeInTheDocument()
    expect(store.getState().auth.user?.firstName).toBe('Mary')
    expect(calls.some((call) => call.path === '/api/auth/change-password')).toBe(false)
  })

  it('asks for a first and a last name when the Name field holds one word, without calling the server', async () => {
    const calls = stubAccount()
    renderPage(<AccountPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Edit my account' }))
    const name = screen.getByLabelText('Name')
    await userEvent.clear(name)
    await userEvent.type(name, 'Cher')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Enter your first and last name, like Mary Smith',
    )
    expect(calls.filter((call) => call.method !== 'GET')).toHaveLength(0)
  })

  it('refuses new passwords that do not match, without calling the server', async () => {
    const calls = stubAccount()
    renderPage(<AccountPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Edit my account' }))
    await userEvent.type(screen.getByLabelText('Current Password'), 'Old-pass1!')
    await userEvent.type(screen.getByLabelText('New Password'), 'New-pass1!')
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'New-pass2!')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(screen.getByRole('alert')).toHaveTextContent('New passwords do not match')
    expect(calls.filter((call) => call.method !== 'GET')).toHaveLength(0)
  })

  it('changes the password only when all three password fields are filled', async () => {
    const calls = stubAccount()
    const { store } = renderPage(<AccountPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Edit my account' }))
    await userEvent.type(screen.getByLabelText('New Password'), 'New-pass1!')
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'New-pass1!')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    await screen.findByRole('button', { name: 'Edit my account' })
    expect(calls.some((call) => call.path === '/api/auth/change-password')).toBe(false)

    await userEvent.click(screen.getByRole('button', { name: 'Edit my account' }))
    await userEvent.type(screen.getByLabelText('Current Password'), 'Old-pass1!')
    await userEvent.type(screen.getByLabelText('New Password'), 'New-pass1!')
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'New-pass1!')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument()
    expect(calls.find((call) => call.path === '/api/auth/change-password')?.body).toEqual({
      oldPassword: 'Old-pass1!',
      newPassword: 'New-pass1!',
    })
    // The old token was revoked with every session: the fresh one is kept.
    expect(store.getState().auth.accessToken).toBe('fresh-token')
  })

  it("shows the server's message when saving fails and stays in edit mode", async () => {
    stubAccount({ put: () => jsonResponse(400, { message: 'Invalid Phone Number' }) })
    renderPage(<AccountPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Edit my account' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid Phone Number')
    expect(screen.getByRole('button', { name: 'Undo Changes' })).toBeInTheDocument()
  })

  it('undoes the changes and leaves edit mode', async () => {
    stubAccount()
    renderPage(<AccountPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Edit my account' }))
    await userEvent.type(screen.getByLabelText('Name'), 'x')
    await userEvent.click(screen.getByRole('button', { name: 'Undo Changes' }))
    expect(screen.getByLabelText('Name')).toHaveValue('Ava Turner')
    expect(screen.queryByLabelText('Current Password')).toBeNull()
  })
})
