import { screen } from '@testing-library/react'
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
})
