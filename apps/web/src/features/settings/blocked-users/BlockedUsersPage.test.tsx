import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { BlockedUser } from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import BlockedUsersPage from '@/features/settings/blocked-users/BlockedUsersPage'
import { renderPage } from '@/test/settings-helpers'
import { jsonResponse, stubFetch, withRenewal } from '@/test/helpers'

const sam: BlockedUser = {
  user: { _id: 'u-sam', name: 'Sam Carter', profilePicture: null },
  blockedAt: '2026-11-20T10:00:00.000Z',
}
const rita: BlockedUser = {
  user: { _id: 'u-rita', name: 'Rita Moss', profilePicture: null },
  blockedAt: '2026-11-02T10:00:00.000Z',
}

describe('Settings › Blocked users', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('lists the blocked people newest first, and Unblock takes one off the list', async () => {
    let blocks = [sam, rita]
    const unblocked: string[] = []
    fetchStub = stubFetch(
      withRenewal((url, request) => {
        if (url === '/api/people/blocks' && request.method === 'GET')
          return jsonResponse(200, { blocks })
        const match = /^\/api\/people\/blocks\/(.+)$/.exec(url)
        if (match && request.method === 'DELETE') {
          unblocked.push(decodeURIComponent(match[1]!))
          blocks = blocks.filter((block) => block.user._id !== match[1])
          return new Response(null, { status: 204 })
        }
        return jsonResponse(404, { message: 'unexpected' })
      }),
    )
    renderPage(<BlockedUsersPage />)
    expect(screen.getByRole('heading', { name: 'Blocked users' })).toBeInTheDocument()
    const list = await screen.findByRole('list')
    const items = within(list).getAllByRole('listitem')
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Sam Carter'),
      expect.stringContaining('Rita Moss'),
    ])
    expect(items[0]).toHaveTextContent('Blocked on Nov 20, 2026')

    await userEvent.click(screen.getByRole('button', { name: 'Unblock Sam Carter' }))
    await waitFor(() => expect(screen.queryByText('Sam Carter')).toBeNull())
    expect(unblocked).toEqual(['u-sam'])
    expect(screen.getByText('Rita Moss')).toBeInTheDocument()
  })

  it('says when nobody is blocked', async () => {
    fetchStub = stubFetch(withRenewal(() => jsonResponse(200, { blocks: [] })))
    renderPage(<BlockedUsersPage />)
    expect(await screen.findByText('You have not blocked anyone.')).toBeInTheDocument()
  })

  it("shows the server's message when an unblock fails, and keeps the person listed", async () => {
    fetchStub = stubFetch(
      withRenewal((url, request) =>
        request.method === 'DELETE'
          ? jsonResponse(404, { message: Messages.blocks.notBlocked })
          : jsonResponse(200, { blocks: [sam] }),
      ),
    )
    renderPage(<BlockedUsersPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Unblock Sam Carter' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(Messages.blocks.notBlocked)
    expect(screen.getByText('Sam Carter')).toBeInTheDocument()
  })
})
