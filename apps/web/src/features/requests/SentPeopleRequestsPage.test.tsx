import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { SentPeopleRequest } from '@marketplace/contracts/api'
import { jsonResponse } from '@/test/helpers'
import { listThatDeletes, renderRequestsPage } from '@/test/requests-helpers'
import SentPeopleRequestsPage from './SentPeopleRequestsPage'

const requests: SentPeopleRequest[] = [
  {
    _id: 'b1',
    status: 'pending',
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    post: { _id: 'p1', title: 'Move a piano' },
    requestedPerson: { _id: 'w1', name: 'Leo Worker' },
  },
  {
    _id: 'b2',
    status: 'rejected',
    createdAt: '2026-01-03T10:00:00.000Z',
    updatedAt: '2026-01-03T10:00:00.000Z',
    post: { _id: 'p2', title: 'Paint a fence' },
    requestedPerson: { _id: 'w2', name: 'Zoe Helper' },
  },
]

const renderPage = (handler: Parameters<typeof renderRequestsPage>[1]) =>
  renderRequestsPage(<SentPeopleRequestsPage />, handler)

describe('SentPeopleRequestsPage', () => {
  it('reads "You have requested {person} for {post}" with the status, declined for rejected', async () => {
    renderPage(() => jsonResponse(200, requests))
    const row = (await screen.findByText('Zoe Helper')).closest('li') as HTMLElement
    expect(row).toHaveTextContent('You have requested Zoe Helper for Paint a fence')
    expect(within(row).getByRole('button', { name: 'Status: Declined' })).toBeInTheDocument()
  })

  it('the status filter keeps pending requests', async () => {
    renderPage(() => jsonResponse(200, requests))
    await screen.findByText('Zoe Helper')
    await userEvent.setup().selectOptions(screen.getByLabelText('Status'), 'pending')
    expect(screen.queryByText('Zoe Helper')).toBeNull()
    expect(screen.getByText('Leo Worker')).toBeInTheDocument()
  })

  it('cancelling asks with the post title and deletes the sent request', async () => {
    const user = userEvent.setup()
    const { handler, deleted } = listThatDeletes(requests)
    renderPage(handler)
    await user.click(await screen.findByRole('button', { name: 'Cancel request to Leo Worker' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete Request' })
    expect(dialog).toHaveTextContent(
      'Are you sure to delete this person you requested for "Move a piano"?',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual(['/api/people/requests/b1']))
  })

  it('shows the error and empty texts', async () => {
    renderPage(() => jsonResponse(403, {}))
    expect(await screen.findByText('Error: Failed to load requests')).toBeInTheDocument()
  })

  it('says when there is no request', async () => {
    renderPage(() => jsonResponse(200, []))
    expect(await screen.findByText('No requests found')).toBeInTheDocument()
  })
})
