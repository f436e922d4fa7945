import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { openModalOf, renderModal, samplePerson, viewer } from '@/test/modal-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'
import WorkerDetailsModal from '@/features/people/WorkerDetailsModal'
import { decorativeIcon, isFilled } from '@/test/icons'

describe('worker details modal', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('shows age, skills joined by " - " and the rating once there is one', () => {
    renderModal(
      <WorkerDetailsModal person={{ ...samplePerson, rating: { average: 4.5, count: 2 } }} />,
      { user: null },
    )
    expect(screen.getByText('31 years old')).toBeInTheDocument()
    expect(screen.getByText('Painting - Drywall')).toBeInTheDocument()
    const rating = screen.getByText('4.5 (2)')
    expect(rating).toHaveTextContent(/^Rated 4\.5 \(2\)$/)
    expect(isFilled(decorativeIcon(rating))).toBe(true)
  })

  it('shows the viewer their own hidden contacts and a Modify button, without Request or Report', async () => {
    const self = {
      ...samplePerson,
      _id: viewer._id,
      contacts: [
        { value: 'public@example.test', visibility: 'public' as const },
        { value: 'secret@example.test', visibility: 'hidden' as const },
      ],
    }
    const { router } = renderModal(<WorkerDetailsModal person={self} />)
    expect(screen.getByText('secret@example.test')).toBeInTheDocument()
    expect(screen.getAllByText('Hidden from public')).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull()
    expect(screen.queryByRole('button', { name: /^Request/ })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Modify' }))
    expect(router.state.location.pathname).toBe('/settings-my-worker-profile')
  })

  it('asks a guest to log in to save a favorite', async () => {
    renderModal(<WorkerDetailsModal person={samplePerson} />, { user: null })
    const save = screen.getByRole('button', { name: 'Save' })
    expect(isFilled(decorativeIcon(save))).toBe(false)
    await userEvent.click(save)
    expect(screen.getByRole('alert')).toHaveTextContent('Please login to save favorites')
  })

  it('reads the saved state by personID and opens the request modal', async () => {
    fetchStub = stubFetch(() =>
      jsonResponse(200, [
        { favoriteID: samplePerson, personID: samplePerson._id, createdAt: '', updatedAt: '' },
      ]),
    )
    const { store } = renderModal(<WorkerDetailsModal person={samplePerson} />)
    const saved = await screen.findByRole('button', { name: 'Saved' })
    expect(isFilled(decorativeIcon(saved))).toBe(true)
    await userEvent.click(screen.getByRole('button', { name: 'Request Wes' }))
    expect(openModalOf(store)).toEqual({ kind: 'requestPerson', person: samplePerson })
  })

  it('offers Block to a signed-in viewer, with its confirmation, and sends the block', async () => {
    const blocked: unknown[] = []
    fetchStub = stubFetch(async (url, request) => {
      if (url === '/api/people/blocks' && request.method === 'POST') {
        blocked.push(JSON.parse(await request.text()))
        return jsonResponse(201, {
          user: { _id: samplePerson._id, name: 'Wes Walker', profilePicture: null },
          blockedAt: '2026-11-29T10:00:00.000Z',
        })
      }
      return jsonResponse(200, [])
    })
    const { unmount } = renderModal(<WorkerDetailsModal person={samplePerson} />)
    await userEvent.click(screen.getByRole('button', { name: 'Block' }))
    const confirm = screen.getByRole('dialog', { name: /^Block .+\?$/ })
    expect(confirm).toHaveTextContent('will not be told')
    await userEvent.click(within(confirm).getByRole('button', { name: 'Block' }))
    await waitFor(() => expect(blocked).toEqual([{ userId: samplePerson._id }]))
    unmount()
  }, 15_000)

  it('offers no Block to a guest, nor on the viewer’s own profile', () => {
    const guest = renderModal(<WorkerDetailsModal person={samplePerson} />, { user: null })
    expect(screen.queryByRole('button', { name: 'Block' })).toBeNull()
    guest.unmount()
    renderModal(<WorkerDetailsModal person={{ ...samplePerson, _id: viewer._id }} />)
    expect(screen.queryByRole('button', { name: 'Block' })).toBeNull()
  })
})
