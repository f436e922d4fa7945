import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@marketplace/contracts/validation'
import { BlockUserButton } from '@/features/blocks/BlockUserButton'
import { bodyOf, renderPage } from '@/test/settings-helpers'
import { jsonResponse, stubFetch, withRenewal } from '@/test/helpers'

describe('the Block button', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('asks first, saying what a block does and that the person is not told; Cancel sends nothing', async () => {
    fetchStub = stubFetch(withRenewal(() => jsonResponse(500, {})))
    renderPage(<BlockUserButton userId="u-sam" name="Sam Carter" />)
    await userEvent.click(screen.getByRole('button', { name: 'Block' }))
    const dialog = screen.getByRole('dialog', { name: 'Block Sam Carter?' })
    expect(dialog).toHaveTextContent(
      "You will no longer see each other's posts or profiles, send each other requests or messages, or get notifications from each other. Sam Carter will not be told.",
    )
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(
      fetchStub.spy.mock.calls.filter(([input]) => String(input).includes('/api/people/blocks')),
    ).toHaveLength(0)
  })

  it('blocks on confirmation and tells the screen, which usually closes', async () => {
    const sent: unknown[] = []
    fetchStub = stubFetch(
      withRenewal(async (url, request) => {
        if (url === '/api/people/blocks' && request.method === 'POST') {
          sent.push(await bodyOf(request))
          return jsonResponse(201, {
            user: { _id: 'u-sam', name: 'Sam Carter', profilePicture: null },
            blockedAt: '2026-11-29T10:00:00.000Z',
          })
        }
        return jsonResponse(404, { message: 'unexpected' })
      }),
    )
    const onBlocked = jest.fn()
    renderPage(<BlockUserButton userId="u-sam" name="Sam Carter" onBlocked={onBlocked} />)
    await userEvent.click(screen.getByRole('button', { name: 'Block' }))
    const dialog = screen.getByRole('dialog', { name: 'Block Sam Carter?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Block' }))
    await waitFor(() => expect(onBlocked).toHaveBeenCalledTimes(1))
    expect(sent).toEqual([{ userId: 'u-sam' }])
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it("keeps the dialog open with the server's message when the block fails", async () => {
    fetchStub = stubFetch(
      withRenewal(() => jsonResponse(404, { message: Messages.blocks.personNotFound })),
    )
    const onBlocked = jest.fn()
    renderPage(<BlockUserButton userId="u-gone" onBlocked={onBlocked} label="Block who sent it" />)
    await userEvent.click(screen.getByRole('button', { name: 'Block who sent it' }))
    const dialog = screen.getByRole('dialog', { name: 'Block this person?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Block' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      Messages.blocks.personNotFound,
    )
    expect(onBlocked).not.toHaveBeenCalled()
  })
})
