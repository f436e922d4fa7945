import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReceivedPeopleRequest } from '@marketplace/contracts/api'
import { jsonResponse } from '@/test/helpers'
import { listThatDeletes, renderRequestsPage } from '@/test/requests-helpers'
import ReceivedPeopleRequestsPage from './ReceivedPeopleRequestsPage'

const requests: ReceivedPeopleRequest[] = [
  {
    _id: 'a1',
    status: 'pending',
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    post: { _id: 'p1', title: 'Move a piano' },
    requester: { _id: 'o1', name: 'Mia Member' },
  },
  {
    _id: 'a2',
    status: 'accepted',
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    post: { _id: 'p2', title: 'Paint a fence' },
    requester: { _id: 'o2', name: 'Leo Owner' },
  },
]

const renderPage = (handler: Parameters<typeof renderRequestsPage>[1]) =>
  renderRequestsPage(<ReceivedPeopleRequestsPage />, handler)

const rowOf = (text: string) => screen.getByText(text).closest('li') as HTMLElement

describe('ReceivedPeopleRequestsPage', () => {
  it('pending rows offer Accept and Decline; decided rows a status and a delete icon, no undo', async () => {
    renderPage(() => jsonResponse(200, requests))
    await screen.findByText('Mia Member')
    expect(rowOf('Mia Member')).toHaveTextContent('is requesting you for')
    expect(within(rowOf('Mia Member')).getByRole('button', { name: 'Decline' })).toBeInTheDocument()
    const decided = rowOf('Leo Owner')
    expect(decided).toHaveTextContent('Accepted')
    expect(within(decided).queryByRole('button', { name: 'Undo decision' })).toBeNull()
    expect(
      within(decided).getByRole('button', { name: 'Delete request from Leo Owner' }),
    ).toBeInTheDocument()
  })

  it('the status filter keeps the chosen status', async () => {
    renderPage(() => jsonResponse(200, requests))
    await screen.findByText('Mia Member')
    await userEvent.setup().selectOptions(screen.getByLabelText('Status'), 'accepted')
    expect(screen.queryByText('Mia Member')).toBeNull()
    expect(screen.getByText('Leo Owner')).toBeInTheDocument()
  })

  it('the delete confirmation names the requester and the post', async () => {
    const user = userEvent.setup()
    const { handler, deleted } = listThatDeletes(requests)
    renderPage(handler)
    await user.click(await screen.findByRole('button', { name: 'Delete request from Leo Owner' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete Request' })
    expect(dialog).toHaveTextContent(
      'Are you sure to delete Leo Owner\'s request for "Paint a fence"?',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual(['/api/people/requests/received/a2']))
  })

  it('a failed decision says which one failed', async () => {
    renderPage((_url, req) =>
      req.method === 'PATCH' ? jsonResponse(500, { message: 'boom' }) : jsonResponse(200, requests),
    )
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Accept' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to accept request. Please try again.',
    )
  })

  it('a post that cannot be loaded says so', async () => {
    renderPage((url) =>
      url === '/api/jobs/p1'
        ? jsonResponse(404, { message: 'Post not found' })
        : jsonResponse(200, requests),
    )
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Move a piano' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load post details. Please try again later.',
    )
  })

  it('shows the empty and the error texts', async () => {
    renderPage(() => jsonResponse(200, []))
    expect(await screen.findByText('No requests received yet')).toBeInTheDocument()
    renderPage(() => jsonResponse(403, {}))
    expect(
      await screen.findByText('Failed to load requests. Please try again later.'),
    ).toBeInTheDocument()
  })
})
