import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { SentJobRequest } from '@marketplace/contracts/api'
import { jsonResponse } from '@/test/helpers'
import { listThatDeletes, renderRequestsPage } from '@/test/requests-helpers'
import SentPostRequestsPage from './SentPostRequestsPage'

function sent(
  id: string,
  status: SentJobRequest['status'],
  title: string,
  createdAt: string,
  hidden: boolean,
): SentJobRequest {
  return {
    _id: id,
    status,
    createdAt,
    post: {
      _id: `post-${id}`,
      title,
      location: hidden ? null : '12 Main St',
      salary: '$80',
      jobPicture: null,
      displayLocation: false,
      displayContact: false,
      contact: hidden ? null : 'Phone',
      infos: 'Bring gloves',
      owner: { _id: 'o1', name: 'Mia Member' },
    },
  }
}

const requests = [
  sent('s1', 'pending', 'Move a piano', '2026-01-01T10:00:00.000Z', true),
  sent('s2', 'accepted', 'Paint a fence', '2026-01-03T10:00:00.000Z', false),
]

const renderPage = (handler: Parameters<typeof renderRequestsPage>[1]) =>
  renderRequestsPage(<SentPostRequestsPage />, handler)

const titles = () =>
  within(screen.getByRole('list', { name: 'Posts I requested' }))
    .getAllByRole('heading')
    .map((heading) => heading.textContent)

describe('SentPostRequestsPage', () => {
  it('sorts Most Recent or Oldest First and filters by status', async () => {
    const user = userEvent.setup()
    renderPage(() => jsonResponse(200, requests))
    await screen.findByText('Move a piano')
    expect(titles()).toEqual(['Paint a fence', 'Move a piano'])
    await user.selectOptions(screen.getByLabelText('Sort'), 'Oldest First')
    expect(titles()).toEqual(['Move a piano', 'Paint a fence'])
    await user.selectOptions(screen.getByLabelText('Status'), 'Pending')
    expect(titles()).toEqual(['Move a piano'])
    await user.selectOptions(screen.getByLabelText('Status'), 'Declined')
    expect(screen.getByText('No requested posts found')).toBeInTheDocument()
  })

  it('Details shows the hidden fields only once accepted, and Remove Request asks first', async () => {
    const user = userEvent.setup()
    const { handler, deleted } = listThatDeletes(requests)
    renderPage(handler)
    const accepted = await screen.findByRole('listitem', { name: 'Paint a fence' })
    await user.click(within(accepted).getByRole('button', { name: 'Details' }))
    expect(screen.getByRole('dialog', { name: 'Paint a fence' })).toHaveTextContent('12 Main St')
    await user.click(screen.getByRole('button', { name: 'Close' }))

    const pending = screen.getByRole('listitem', { name: 'Move a piano' })
    await user.click(within(pending).getByRole('button', { name: 'Details' }))
    const details = screen.getByRole('dialog', { name: 'Move a piano' })
    expect(within(details).getByLabelText(/Location hidden/)).toBeInTheDocument()
    await user.click(within(details).getByRole('button', { name: 'Remove Request' }))
    const confirm = screen.getByRole('dialog', { name: 'Delete Request' })
    expect(confirm).toHaveTextContent('Are you sure to delete your request on "Move a piano"?')
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual(['/api/jobs/requests/s1']))
  })
})
