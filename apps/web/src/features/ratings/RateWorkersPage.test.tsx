import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import RateWorkersPage from '@/features/ratings/RateWorkersPage'
import type { RateableRequest } from '@marketplace/contracts/api'
import { bodyOf, renderPage } from '@/test/settings-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'

const DAY = 24 * 60 * 60 * 1000

function entry(overrides: Partial<RateableRequest> = {}): RateableRequest {
  return {
    requestId: 'r1',
    status: 'accepted',
    post: { _id: 'p1', title: 'Move a sofa' },
    worker: { _id: 'w1', name: 'Wanda Worker', profilePicture: null, title: 'House mover' },
    rating: null,
    ...overrides,
  }
}

describe('rate your workers page', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('shows "Loading..." and then the empty state', async () => {
    let respond: (response: Response) => void = () => {}
    fetchStub = stubFetch(() => new Promise<Response>((resolve) => (respond = resolve)))
    renderPage(<RateWorkersPage />)
    expect(await screen.findByText('Loading...')).toBeInTheDocument()
    respond(jsonResponse(200, []))
    expect(await screen.findByText('No accepted requests to rate yet')).toBeInTheDocument()
  })

  it('says so when the list cannot be loaded', async () => {
    fetchStub = stubFetch(() => jsonResponse(500, { message: 'Down' }))
    renderPage(<RateWorkersPage />)
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load your workers. Please try again.',
    )
  })

  it('rates a worker with stars and a trimmed comment, then shows the saved state', async () => {
    const user = userEvent.setup()
    let sent: { path: string; body: unknown } | null = null
    fetchStub = stubFetch(async (path, request) => {
      if (request.method === 'PUT') {
        sent = { path, body: await bodyOf(request) }
        return jsonResponse(201, {
          _id: 'rating1',
          requestId: 'r1',
          workerId: 'w1',
          stars: 4,
          comment: 'Quick and careful',
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
          editableUntil: new Date(Date.now() + 14 * DAY).toISOString(),
        })
      }
      return jsonResponse(200, [entry()])
    })
    renderPage(<RateWorkersPage />)
    const row = await screen.findByRole('listitem', { name: 'Wanda Worker' })
    expect(row).toHaveTextContent('House mover')
    expect(row).toHaveTextContent('for "Move a sofa"')
    const save = within(row).getByRole('button', { name: 'Save' })
    expect(save).toBeDisabled()
    await user.click(within(row).getByRole('button', { name: '4 stars' }))
    expect(within(row).getByRole('button', { name: '4 stars' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    await user.type(within(row).getByLabelText('Comment (optional)'), '  Quick and careful  ')
    await user.click(save)
    expect(await within(row).findByText('Rating saved')).toBeInTheDocument()
    expect(sent).toEqual({
      path: '/api/people/ratings/r1',
      body: { stars: 4, comment: 'Quick and careful' },
    })
  })

  it('shows the saved rating with the date it stays editable until, and the server’s refusal', async () => {
    const user = userEvent.setup()
    const editableUntil = '2031-03-15T12:00:00.000Z'
    fetchStub = stubFetch((_path, request) =>
      request.method === 'PUT'
        ? jsonResponse(409, { message: 'Ratings can only be changed within 14 days' })
        : jsonResponse(200, [
            entry({
              rating: {
                stars: 2,
                comment: 'Late',
                createdAt: '2031-03-01T12:00:00.000Z',
                updatedAt: '2031-03-01T12:00:00.000Z',
                editableUntil,
              },
            }),
          ]),
    )
    renderPage(<RateWorkersPage />)
    const row = await screen.findByRole('listitem', { name: 'Wanda Worker' })
    expect(within(row).getByRole('button', { name: '2 stars' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    expect(within(row).getByLabelText('Comment (optional)')).toHaveValue('Late')
    expect(row).toHaveTextContent(
      `Editable until ${new Date(editableUntil).toLocaleDateString('en-US', {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
      })}`,
    )
    await user.click(within(row).getByRole('button', { name: '5 stars' }))
    await user.click(within(row).getByRole('button', { name: 'Save' }))
    expect(await within(row).findByRole('alert')).toHaveTextContent(
      'Ratings can only be changed within 14 days',
    )
  })

  it('locks a rating past its edit window and refuses a comment over 500 characters', async () => {
    const user = userEvent.setup()
    fetchStub = stubFetch(() =>
      jsonResponse(200, [
        entry({
          rating: {
            stars: 3,
            comment: '',
            createdAt: new Date(Date.now() - 20 * DAY).toISOString(),
            updatedAt: new Date(Date.now() - 20 * DAY).toISOString(),
            editableUntil: new Date(Date.now() - 6 * DAY).toISOString(),
          },
        }),
        entry({ requestId: 'r2', worker: { ...entry().worker, _id: 'w2', name: 'Bruno Builder' } }),
      ]),
    )
    renderPage(<RateWorkersPage />)
    const locked = await screen.findByRole('listitem', { name: 'Wanda Worker' })
    expect(locked).toHaveTextContent('This rating can no longer be changed.')
    expect(within(locked).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
    expect(within(locked).getByRole('button', { name: '1 star' })).toBeDisabled()

    const open = screen.getByRole('listitem', { name: 'Bruno Builder' })
    await user.click(within(open).getByRole('button', { name: '5 stars' }))
    const comment = within(open).getByLabelText('Comment (optional)')
    await user.click(comment)
    await user.paste('x'.repeat(501))
    await waitFor(() => expect(comment).toHaveAttribute('aria-invalid', 'true'))
    expect(open).toHaveTextContent('501/500')
    expect(within(open).getByRole('button', { name: 'Save' })).toBeDisabled()
  })
})
