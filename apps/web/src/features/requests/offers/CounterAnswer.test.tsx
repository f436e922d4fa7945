import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { SentJobRequest } from '@marketplace/contracts/api'
import { jsonResponse } from '@/test/helpers'
import { renderRequestsPage } from '@/test/requests-helpers'
import SentPostRequestsPage from '@/features/requests/SentPostRequestsPage'

function sent(id: string, terms: Partial<SentJobRequest>): SentJobRequest {
  return {
    _id: id,
    status: 'pending',
    createdAt: '2026-01-01T10:00:00.000Z',
    post: {
      _id: `post-${id}`,
      title: `Job ${id}`,
      location: null,
      salary: '$80',
      jobPicture: null,
      displayLocation: false,
      displayContact: false,
      contact: null,
      infos: '',
      owner: { _id: 'o1', name: 'Olga Owner' },
    },
    ...terms,
  }
}

const terms = { amount: 100, unit: 'fixed' as const, note: '', proposedTime: 'Sunday' }
const counter = {
  amount: 85,
  unit: 'fixed' as const,
  note: 'My budget',
  state: 'pending' as const,
  createdAt: '2026-01-02T10:00:00.000Z',
}

const cardOf = (title: string) => screen.getByRole('listitem', { name: title })

describe('offers on the sent requests page', () => {
  it('lets the worker accept the counter-offer, then shows it as their offer', async () => {
    const user = userEvent.setup()
    const patches: Array<{ path: string; body: unknown }> = []
    let list = [sent('s1', { offer: terms, counter, agreed: null })]
    renderRequestsPage(<SentPostRequestsPage />, async (path, request) => {
      if (request.method === 'PATCH') {
        patches.push({ path, body: await request.json() })
        list = [
          sent('s1', {
            offer: { ...terms, amount: 85, note: 'My budget' },
            counter: { ...counter, state: 'accepted' },
            agreed: null,
          }),
        ]
        return jsonResponse(200, {})
      }
      return jsonResponse(200, list)
    })
    await screen.findByText('Job s1')
    const card = cardOf('Job s1')
    expect(within(card).getByRole('group', { name: 'Counter-offer' })).toHaveTextContent(
      'The owner offers $85: My budget',
    )
    await user.click(within(card).getByRole('button', { name: 'Accept counter-offer' }))
    await waitFor(() =>
      expect(patches).toEqual([
        { path: '/api/jobs/requests/s1/counter-offer', body: { answer: 'accepted' } },
      ]),
    )
    expect(await within(cardOf('Job s1')).findByText('$85 (accepted)')).toBeInTheDocument()
    expect(
      within(cardOf('Job s1')).queryByRole('button', { name: 'Accept counter-offer' }),
    ).toBeNull()
  })

  it('sends declined, and shows the agreed amount of an accepted request', async () => {
    const user = userEvent.setup()
    const bodies: unknown[] = []
    renderRequestsPage(<SentPostRequestsPage />, async (_path, request) => {
      if (request.method === 'PATCH') {
        bodies.push(await request.json())
        return jsonResponse(200, {})
      }
      return jsonResponse(200, [
        sent('s1', { offer: terms, counter, agreed: null }),
        sent('s2', {
          status: 'accepted',
          offer: { ...terms, unit: 'hour', amount: 25 },
          counter: null,
          agreed: { amount: 25, unit: 'hour' },
        }),
      ])
    })
    await screen.findByText('Job s1')
    await user.click(
      within(cardOf('Job s1')).getByRole('button', { name: 'Decline counter-offer' }),
    )
    await waitFor(() => expect(bodies).toEqual([{ answer: 'declined' }]))
    expect(within(cardOf('Job s2')).getByText('Agreed amount')).toBeInTheDocument()
    expect(within(cardOf('Job s2')).getByText('$25/hour')).toBeInTheDocument()
  })
})
