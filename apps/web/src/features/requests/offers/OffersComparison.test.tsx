import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReceivedJobRequest } from '@marketplace/contracts/api'
import { OFFER_MESSAGES } from '@marketplace/contracts/marketplace'
import { jsonResponse } from '@/test/helpers'
import { renderRequestsPage } from '@/test/requests-helpers'
import ReceivedPostRequestsPage from '@/features/requests/ReceivedPostRequestsPage'

function received(
  id: string,
  name: string,
  terms: Partial<ReceivedJobRequest>,
  rating: { average: number | null; count: number },
  completedRequests: number,
): ReceivedJobRequest {
  return {
    _id: id,
    status: 'pending',
    createdAt: `2026-01-0${id.slice(1)}T10:00:00.000Z`,
    updatedAt: `2026-01-0${id.slice(1)}T10:00:00.000Z`,
    requester: {
      _id: `r-${id}`,
      name,
      profilePicture: null,
      email: `${id}@example.test`,
      isWorker: true,
      title: 'Mover',
      skills: [],
      rating,
      completedRequests,
    },
    post: {
      _id: 'post-piano',
      title: 'Move a piano',
      location: 'Springfield',
      salary: '$80',
      picture: null,
      status: 'online',
    },
    offer: null,
    counter: null,
    agreed: null,
    ...terms,
  }
}

const offer = (amount: number, proposedTime = '') => ({
  amount,
  unit: 'fixed' as const,
  note: '',
  proposedTime,
})

const requests = [
  received('q1', 'Mia Member', { offer: offer(120, 'Monday') }, { average: 4.2, count: 5 }, 3),
  received('q2', 'Leo Worker', { offer: offer(95.5) }, { average: 4.9, count: 12 }, 8),
  received('q3', 'Zoe Helper', { offer: offer(100) }, { average: null, count: 0 }, 0),
  // No offer: in the list, not in the comparison.
  received('q4', 'Ned Nooffer', {}, { average: 5, count: 1 }, 1),
]

const comparisonRows = () =>
  within(screen.getByRole('table', { name: 'Move a piano' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    )

const workersInTable = () =>
  within(screen.getByRole('table', { name: 'Move a piano' }))
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent)

describe('offers on the received requests page', () => {
  it('puts the offers side by side with rating, requests done and time, sorted by amount or rating', async () => {
    const user = userEvent.setup()
    renderRequestsPage(<ReceivedPostRequestsPage />, () => jsonResponse(200, requests))
    await screen.findByRole('table', { name: 'Move a piano' })
    expect(workersInTable()).toEqual(['Leo Worker', 'Zoe Helper', 'Mia Member'])
    expect(comparisonRows()[2]).toEqual(['$120', '4.2 (5)', '3', 'Monday', 'Pending'])
    expect(comparisonRows()[1]).toEqual(['$100', 'Not rated yet', '0', '—', 'Pending'])

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort offers' }), 'amount-desc')
    expect(workersInTable()).toEqual(['Mia Member', 'Zoe Helper', 'Leo Worker'])
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort offers' }), 'rating')
    expect(workersInTable()).toEqual(['Leo Worker', 'Mia Member', 'Zoe Helper'])
  })

  it('sends one counter-offer, checked as the server checks it, and hides the form once made', async () => {
    const user = userEvent.setup()
    const posts: Array<{ path: string; body: unknown }> = []
    let list = [requests[0]!]
    renderRequestsPage(<ReceivedPostRequestsPage />, async (path, request) => {
      if (request.method === 'POST') {
        posts.push({ path, body: await request.json() })
        list = [
          {
            ...requests[0]!,
            counter: {
              ...offer(99.5),
              state: 'pending',
              createdAt: '2026-01-05T10:00:00.000Z',
            } as ReceivedJobRequest['counter'],
          },
        ]
        return jsonResponse(201, {})
      }
      return jsonResponse(200, list)
    })
    await user.click(await screen.findByRole('button', { name: 'Make a counter-offer' }))
    const form = screen.getByRole('form', { name: 'Counter-offer to Mia Member' })
    await user.type(within(form).getByLabelText('Counter-offer'), '99.555')
    await user.click(within(form).getByRole('button', { name: 'Send counter-offer' }))
    expect(within(form).getByText(OFFER_MESSAGES.amountDecimals)).toBeInTheDocument()
    expect(posts).toEqual([])

    await user.clear(within(form).getByLabelText('Counter-offer'))
    await user.type(within(form).getByLabelText('Counter-offer'), '99.50')
    await user.type(within(form).getByLabelText(/Note/), 'My budget')
    await user.click(within(form).getByRole('button', { name: 'Send counter-offer' }))
    await waitFor(() =>
      expect(posts).toEqual([
        {
          path: '/api/jobs/requests/q1/counter-offer',
          body: { amount: 99.5, unit: 'fixed', note: 'My budget' },
        },
      ]),
    )
    expect(await screen.findByText('$99.50 (waiting for an answer)')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Make a counter-offer' })).toBeNull()
  })

  it('shows the agreed amount of an accepted request', async () => {
    renderRequestsPage(<ReceivedPostRequestsPage />, () =>
      jsonResponse(200, [
        received(
          'q1',
          'Mia Member',
          { status: 'accepted', offer: offer(85), agreed: { amount: 85, unit: 'fixed' } },
          { average: null, count: 0 },
          1,
        ),
      ]),
    )
    const row = (await screen.findByRole('button', { name: 'Mia Member' })).closest(
      'li',
    ) as HTMLElement
    expect(within(row).getByText('Agreed amount')).toBeInTheDocument()
    expect(within(row).getByText('$85')).toBeInTheDocument()
    expect(within(row).queryByRole('button', { name: 'Make a counter-offer' })).toBeNull()
  })
})
