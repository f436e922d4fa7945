import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import AccountPage from '@/features/settings/account/AccountPage'
import { renderPage, selfProfile } from '@/test/settings-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'

describe('home place in the account', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  function stubHomePlace() {
    const sent: unknown[] = []
    let profile: Record<string, unknown> = { ...selfProfile, homePlace: 'Austin, TX' }
    fetchStub = stubFetch(async (path, request) => {
      if (path === '/api/users/u1' && request.method === 'GET') return jsonResponse(200, profile)
      if (path === '/api/users/u1/home-place' && request.method === 'PUT') {
        const body = (await request.json()) as { homePlace: string }
        sent.push(body)
        if (body.homePlace === 'Nowhere-ville')
          return jsonResponse(400, {
            code: 'UNKNOWN_PLACE',
            message:
              'We don\'t know the place "Nowhere-ville". Try a town and state, like "Austin, TX", or a US ZIP code.',
          })
        profile = { ...profile, homePlace: body.homePlace }
        if (!body.homePlace) delete profile.homePlace
        return jsonResponse(200, profile)
      }
      return jsonResponse(404, { message: 'not stubbed' })
    })
    return sent
  }

  it('shows the saved place, saves a new one and clears it', async () => {
    const sent = stubHomePlace()
    renderPage(<AccountPage />)
    // The section shows while the account loads (disabled); use it once the account is there.
    await screen.findByRole('button', { name: 'Edit my account' })
    const field = screen.getByLabelText('Town or ZIP code')
    expect(field).toHaveValue('Austin, TX')

    await userEvent.clear(field)
    await userEvent.type(field, '78664')
    await userEvent.click(screen.getByRole('button', { name: 'Save home place' }))
    expect(await screen.findByText('The feed now starts near 78664.')).toBeInTheDocument()
    expect(sent).toEqual([{ homePlace: '78664' }])

    await userEvent.clear(screen.getByLabelText('Town or ZIP code'))
    await userEvent.click(screen.getByRole('button', { name: 'Save home place' }))
    expect(await screen.findByText('Your home place is cleared.')).toBeInTheDocument()
    expect(sent).toEqual([{ homePlace: '78664' }, { homePlace: '' }])
  })

  it('says when the place is not known', async () => {
    stubHomePlace()
    renderPage(<AccountPage />)
    // The section shows while the account loads (disabled); use it once the account is there.
    await screen.findByRole('button', { name: 'Edit my account' })
    const field = screen.getByLabelText('Town or ZIP code')
    await userEvent.clear(field)
    await userEvent.type(field, 'Nowhere-ville')
    await userEvent.click(screen.getByRole('button', { name: 'Save home place' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We don\'t know the place "Nowhere-ville".',
    )
  })
})
