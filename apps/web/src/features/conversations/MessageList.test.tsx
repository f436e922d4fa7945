import { screen, within } from '@testing-library/react'
import { fakeConversations, ME, message, renderMessages } from '@/test/conversations-helpers'

let server: ReturnType<typeof fakeConversations> | null = null
afterEach(() => {
  server?.stub.restore()
  server = null
})

describe('the thread: system lines', () => {
  it('shows a line of the marketplace apart from both sides, with no Report', async () => {
    server = fakeConversations({
      messages: {
        c1: [
          message({ senderId: '', system: true, text: 'Mia Member offered $80.50' }),
          message({ senderId: '', system: true, text: 'The post owner made a counter-offer: $70' }),
          message({ text: 'Is Saturday fine?' }),
          message({ senderId: '', system: true, text: 'Request accepted. Agreed amount: $70' }),
          message({ senderId: ME, text: 'See you then' }),
        ],
      },
    })
    renderMessages({ at: '/messages/c1' })
    const line = (await screen.findByText('Request accepted. Agreed amount: $70')).closest(
      'li',
    ) as HTMLElement
    expect(line).toHaveClass('thread-system')
    expect(line).not.toHaveClass('bubble-theirs')
    expect(within(line).queryByRole('button', { name: 'Report' })).toBeNull()
    expect(screen.getByText('Mia Member offered $80.50').closest('li')).toHaveClass('thread-system')
    // Only the other side's own message can be reported.
    expect(screen.getAllByRole('button', { name: 'Report' })).toHaveLength(1)
  })
})
