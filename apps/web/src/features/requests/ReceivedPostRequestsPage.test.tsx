import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReceivedJobRequest } from '@marketplace/contracts/api'
import { jsonResponse } from '@/test/helpers'
import { listThatDeletes, renderRequestsPage } from '@/test/requests-helpers'
import ReceivedPostRequestsPage from './ReceivedPostRequestsPage'

function request(
  id: string,
  status: ReceivedJobRequest['status'],
  name: string,
  title: string,
  createdAt: string,
): ReceivedJobRequest {
  return {
    _id: id,
    status,
    createdAt,
    updatedAt: createdAt,
    requester: {
      _id: `r-${id}`,
      name,
      profilePicture: null,
      email: `${id}@example.test`,
      isWorker: true,
      title: 'Mover',
      skills: ['Lifting', 'Driving'],
    },
    post: {
      _id: `post-${title}`,
      title,
      location: 'Springfield',
      salary: '$80',
      picture: null,
      status: 'online',
    },
  }
}

const requests = [
  request('q1', 'pending', 'Mia Member', 'Move a piano', '2026-01-01T10:00:00.000Z'),
  request('q2', 'accepted', 'Leo Worker', 'Move a piano', '2026-01-03T10:00:00.000Z'),
  request('q3', 'rejected', 'Zoe Helper', 'Paint a fence', '2026-01-02T10:00:00.000Z'),
]

const renderPage = (handler: Parameters<typeof renderRequestsPage>[1]) =>
  renderRequestsPage(<ReceivedPostRequestsPage />, handler)

const rowOf = (name: string) => screen.getByRole('button', { name }).closest('li') as HTMLElement
const names = () =>
  within(screen.getByRole('list', { name: 'Requests' }))
    .getAllByRole('listitem')
    .map((row) => within(row).getAllByRole('button')[0]?.textContent)

describe('ReceivedPostRequestsPage', () => {
  it('pending rows offer Accept and Decline; decided rows their status and Undo decision', async () => {
    renderPage(() => jsonResponse(200, requests))
    await screen.findByText('Mia Member')
    const pending = rowOf('Mia Member')
    expect(within(pending).getByRole('button', { name: 'Accept' })).toBeInTheDocument()
    expect(within(pending).getByRole('button', { name: 'Decline' })).toBeInTheDocument()
    expect(within(pending).queryByRole('button', { name: 'Undo decision' })).toBeNull()

    const accepted = rowOf('Leo Worker')
    expect(accepted).toHaveTextContent('Accepted')
    expect(within(accepted).queryByRole('button', { name: 'Accept' })).toBeNull()
    expect(within(accepted).getByRole('button', { name: 'Undo decision' })).toBeInTheDocument()

    // Rejected reads "Declined".
    expect(rowOf('Zoe Helper')).toHaveTextContent('Declined')
  })

  it('Accept sends accepted and Undo decision sends pending', async () => {
    const user = userEvent.setup()
    const patches: { url: string; body: unknown }[] = []
    renderPage(async (url, req) => {
      if (req.method === 'PATCH') {
        patches.push({ url, body: await req.json() })
        return jsonResponse(200, { _id: 'x', status: 'accepted' })
      }
      return jsonResponse(200, requests)
    })
    await screen.findByText('Mia Member')
    await user.click(within(rowOf('Mia Member')).getByRole('button', { name: 'Accept' }))
    await user.click(within(rowOf('Leo Worker')).getByRole('button', { name: 'Undo decision' }))
    await waitFor(() =>
      expect(patches).toEqual([
        { url: '/api/jobs/requests/q1', body: { status: 'accepted' } },
        { url: '/api/jobs/requests/q2', body: { status: 'pending' } },
      ]),
    )
  })

  it('filters by status and by job, newest first unless Oldest is chosen', async () => {
    const user = userEvent.setup()
    renderPage(() => jsonResponse(200, requests))
    await screen.findByText('Mia Member')
    expect(names()).toEqual(['Leo Worker', 'Zoe Helper', 'Mia Member'])
    await user.selectOptions(screen.getByLabelText('Sort'), 'oldest')
    expect(names()).toEqual(['Mia Member', 'Zoe Helper', 'Leo Worker'])
    await user.selectOptions(screen.getByLabelText('Status'), 'rejected')
    expect(names()).toEqual(['Zoe Helper'])
    await user.selectOptions(screen.getByLabelText('Status'), 'all')
    await user.selectOptions(screen.getByLabelText('Job'), 'Move a piano')
    expect(names()).toEqual(['Mia Member', 'Leo Worker'])
    await user.selectOptions(screen.getByLabelText('Status'), 'rejected')
    expect(screen.getByText('No requests found matching your criteria.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Reset Filters' }))
    expect(names()).toHaveLength(3)
  })

  it('the remove icon asks with the post title', async () => {
    const user = userEvent.setup()
    const { handler, deleted } = listThatDeletes(requests)
    renderPage(handler)
    await screen.findByText('Mia Member')
    await user.click(screen.getByRole('button', { name: 'Delete request from Zoe Helper' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete Request on my post' })
    expect(dialog).toHaveTextContent('Are you sure to delete your request on "Paint a fence"?')
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual(['/api/jobs/requests/q3']))
  })

  it('the requester name opens their details', async () => {
    const user = userEvent.setup()
    renderPage(() => jsonResponse(200, requests))
    await user.click(await screen.findByRole('button', { name: 'Mia Member' }))
    const dialog = screen.getByRole('dialog', { name: 'Mia Member' })
    expect(dialog).toHaveTextContent('Lifting - Driving')
    expect(dialog).toHaveTextContent('q1@example.test')
  })

  it('a load failure shows the empty list', async () => {
    renderPage(() => jsonResponse(403, { message: 'You can only access your own account' }))
    expect(await screen.findByText('No requests found matching your criteria.')).toBeInTheDocument()
  })
})
