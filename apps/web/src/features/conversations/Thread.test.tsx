import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { TAKEN_DOWN_MESSAGE_TEXT } from '@marketplace/contracts/marketplace'
import { createStore } from '@/app/store'
import { jsonResponse } from '@/test/helpers'
import {
  conversation,
  fakeConversations,
  ME,
  message,
  MIA,
  renderMessages,
} from '@/test/conversations-helpers'
import { followConversations } from '@/features/conversations/conversations-live'

let server: ReturnType<typeof fakeConversations> | null = null
afterEach(() => {
  server?.stub.restore()
  server = null
})

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()
const thread = () => screen.getByRole('list', { name: 'Messages' })
const input = () => screen.getByRole('textbox', { name: 'Message' })
const bubbleOf = (text: string) => screen.getByText(text).closest('li') as HTMLElement

describe('the thread', () => {
  it('shows the other person, the post, bubbles on both sides and day separators', async () => {
    const yesterday = new Date(Date.now() - 24 * 3600_000).toISOString()
    server = fakeConversations({
      messages: {
        c1: [
          message({ text: 'Is the piano still there?', sentAt: yesterday }),
          message({ senderId: ME, text: 'Yes, come on Saturday', sentAt: minutesAgo(5) }),
        ],
      },
    })
    renderMessages({ at: '/messages/c1' })
    expect(await screen.findByRole('heading', { name: 'Mia Member' })).toBeInTheDocument()
    expect(screen.getAllByText('Move a piano').length).toBeGreaterThan(0)
    const items = within(thread()).getAllByRole('listitem')
    expect(items.map((item) => item.textContent)).toEqual([
      'Yesterday',
      expect.stringContaining('Mia Member: Is the piano still there?'),
      'Today',
      expect.stringContaining('You: Yes, come on Saturday'),
    ])
    expect(bubbleOf('Yes, come on Saturday')).toHaveClass('bubble-mine')
    expect(bubbleOf('Is the piano still there?')).toHaveClass('bubble-theirs')
  })

  it('says "Seen" under my last message the other side read, once', async () => {
    server = fakeConversations({
      messages: {
        c1: [
          message({ senderId: ME, text: 'First', seen: true, sentAt: minutesAgo(3) }),
          message({ senderId: ME, text: 'Second', seen: true, sentAt: minutesAgo(2) }),
          message({ senderId: ME, text: 'Third', seen: false, sentAt: minutesAgo(1) }),
        ],
      },
    })
    renderMessages({ at: '/messages/c1' })
    await screen.findByText('Third')
    expect(screen.getAllByText('Seen')).toHaveLength(1)
    expect(within(bubbleOf('Second')).getByText('Seen')).toBeInTheDocument()
  })

  it('sends with Enter, adds a line with Shift+Enter, and shows the stored message once', async () => {
    server = fakeConversations()
    const user = userEvent.setup()
    renderMessages({ at: '/messages/c1' })
    expect(await screen.findByText('No messages yet. Say hello!')).toBeInTheDocument()
    await user.type(input(), 'Hello{Shift>}{Enter}{/Shift}Saturday?')
    expect(input()).toHaveValue('Hello\nSaturday?')
    expect(server.sent).toHaveLength(0)
    await user.keyboard('{Enter}')
    await waitFor(() => expect(server?.sent).toHaveLength(1))
    expect(server.sent[0]).toEqual({ text: 'Hello\nSaturday?', clientId: expect.any(String) })
    expect(input()).toHaveValue('')
    await waitFor(() => expect(screen.queryByText('Sending...')).not.toBeInTheDocument())
    // The default matcher reads the line break as a space.
    expect(within(thread()).getAllByText('Hello Saturday?')).toHaveLength(1)
  })

  it('shows the sending state, then a failure with its reason, and retries with the same clientId', async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let attempts = 0
    server = fakeConversations({
      refuseSend: () => {
        attempts += 1
        return attempts === 1
          ? jsonResponse(429, { message: 'You can send at most 30 messages a minute' })
          : null
      },
    })
    const user = userEvent.setup()
    renderMessages({ at: '/messages/c1' })
    await screen.findByText('No messages yet. Say hello!')
    await user.type(input(), 'Are you free?{Enter}')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Not sent. You can send at most 30 messages a minute',
    )
    // The retry is held a moment to show its sending state.
    const original = server.stub.spy.getMockImplementation()!
    server.stub.spy.mockImplementation(async (...args) => {
      await held
      return original(...args)
    })
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    expect(screen.getByText('Sending...')).toBeInTheDocument()
    release()
    await waitFor(() => expect(screen.queryByText('Sending...')).not.toBeInTheDocument())
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(server.sent).toHaveLength(2)
    expect(server.sent[1]!.clientId).toBe(server.sent[0]!.clientId)
    expect(within(thread()).getAllByText('Are you free?')).toHaveLength(1)
  })

  it('shows the 2,000-character limit and refuses a longer message', async () => {
    server = fakeConversations()
    renderMessages({ at: '/messages/c1' })
    await screen.findByText('No messages yet. Say hello!')
    expect(screen.getByText('0/2000 characters')).toBeInTheDocument()
    fireEvent.change(input(), { target: { value: 'a'.repeat(2001) } })
    expect(screen.getByText('Message must be at most 2000 characters (2001)')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()
    fireEvent.keyDown(input(), { key: 'Enter' })
    fireEvent.change(input(), { target: { value: `  ${'a'.repeat(2000)}  ` } })
    expect(screen.getByText('2000/2000 characters')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled()
    expect(server.sent).toHaveLength(0)
  })

  it('is read-only with the reason above it and the input disabled', async () => {
    server = fakeConversations({
      conversations: [
        conversation({
          readOnly: 'request-withdrawn',
          readOnlyMessage: 'This conversation is closed: the request was withdrawn.',
        }),
      ],
    })
    renderMessages({ at: '/messages/c1' })
    expect(
      await screen.findByText('This conversation is closed: the request was withdrawn.'),
    ).toBeInTheDocument()
    expect(input()).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()
  })

  it('marks the thread read when it opens with unread messages', async () => {
    server = fakeConversations({
      conversations: [conversation({ unreadCount: 2 })],
      messages: { c1: [message(), message()] },
    })
    renderMessages({ at: '/messages/c1' })
    await waitFor(() => expect(server?.calls).toContain('POST /api/conversations/c1/read'))
  })

  it('announces a live message, shows it once, and marks it read while visible', async () => {
    server = fakeConversations({ messages: { c1: [message({ text: 'Hi' })] } })
    const store = createStore()
    renderMessages({ at: '/messages/c1', store })
    await screen.findByText('Hi')
    const live = followConversations(store.dispatch, ME)
    const incoming = message({ text: 'Can you come at 9?', sentAt: new Date().toISOString() })
    const push = { message: incoming, senderName: 'Mia Member', postTitle: 'Move a piano' }
    act(() => live.message({ ...push, unreadCount: 1, unreadTotal: 1 }))
    act(() => live.message({ ...push, unreadCount: 1, unreadTotal: 1 }))
    // RTK batches the cache's notifications to the next frame.
    expect(await within(thread()).findAllByText('Can you come at 9?')).toHaveLength(1)
    expect(
      await screen.findByText('New message from Mia Member: Can you come at 9?'),
    ).toBeInTheDocument()
    await waitFor(() => expect(server?.calls).toContain('POST /api/conversations/c1/read'))
    live.stop()
  })

  it('says "Seen" when the other side reads, live', async () => {
    const mine = message({ senderId: ME, text: 'See you then', sentAt: minutesAgo(1) })
    server = fakeConversations({ messages: { c1: [mine] } })
    const store = createStore()
    renderMessages({ at: '/messages/c1', store })
    await screen.findByText('See you then')
    expect(screen.queryByText('Seen')).not.toBeInTheDocument()
    const live = followConversations(store.dispatch, ME)
    act(() =>
      live.conversationRead({
        conversationId: 'c1',
        readerId: MIA,
        readAt: new Date().toISOString(),
      }),
    )
    expect(await within(bubbleOf('See you then')).findByText('Seen')).toBeInTheDocument()
    live.stop()
  })

  it('hides a message a moderator took down, for good', async () => {
    const rude = message({ text: 'Something rude' })
    server = fakeConversations({
      messages: { c1: [rude, message({ takenDown: true, text: '' })] },
    })
    const store = createStore()
    renderMessages({ at: '/messages/c1', store })
    await screen.findByText('Something rude')
    expect(screen.getByText(TAKEN_DOWN_MESSAGE_TEXT)).toBeInTheDocument()
    const live = followConversations(store.dispatch, ME)
    act(() => live.messageTakenDown({ conversationId: 'c1', messageId: rude._id }))
    await waitFor(() => expect(screen.queryByText('Something rude')).not.toBeInTheDocument())
    expect(screen.getAllByText(TAKEN_DOWN_MESSAGE_TEXT)).toHaveLength(2)
    expect(screen.queryByRole('button', { name: 'Report' })).not.toBeInTheDocument()
    live.stop()
  })

  it('loads older messages above the ones shown', async () => {
    server = fakeConversations({
      pageSize: 2,
      messages: {
        c1: [
          message({ text: 'Oldest', sentAt: minutesAgo(3) }),
          message({ text: 'Middle', sentAt: minutesAgo(2) }),
          message({ text: 'Newest', sentAt: minutesAgo(1) }),
        ],
      },
    })
    const user = userEvent.setup()
    renderMessages({ at: '/messages/c1' })
    await screen.findByText('Newest')
    expect(screen.queryByText('Oldest')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Load older messages' }))
    expect(await screen.findByText('Oldest')).toBeInTheDocument()
    expect(server.calls).toContain('GET /api/conversations/c1/messages?before=2')
    const texts = within(thread())
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.bubble-text')?.textContent)
      .filter(Boolean)
    expect(texts).toEqual(['Oldest', 'Middle', 'Newest'])
    expect(screen.queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument()
  })

  it('reports one of their messages with the post reasons', async () => {
    const theirs = message({ text: 'Send me your bank password' })
    server = fakeConversations({
      messages: { c1: [theirs, message({ senderId: ME, text: 'No' })] },
    })
    const user = userEvent.setup()
    renderMessages({ at: '/messages/c1' })
    await screen.findByText('Send me your bank password')
    expect(screen.getAllByRole('button', { name: 'Report' })).toHaveLength(1)
    await user.click(screen.getByRole('button', { name: 'Report' }))
    const dialog = screen.getByRole('dialog', { name: 'Report message' })
    await user.click(within(dialog).getByRole('button', { name: 'Submit report' }))
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Please select a reason for reporting',
    )
    await user.click(within(dialog).getByRole('radio', { name: 'Scam/Fraud' }))
    await user.click(within(dialog).getByRole('button', { name: 'Submit report' }))
    expect(
      await within(dialog).findByText(
        'Thank you for your report. Our team will review it within 24 hours.',
      ),
    ).toBeInTheDocument()
    expect(server.reports).toEqual([{ messageId: theirs._id, type: 'scam', description: null }])
  })

  it('says so when the conversation does not exist or is not yours', async () => {
    server = fakeConversations()
    renderMessages({ at: '/messages/nope' })
    expect(await screen.findByText('Conversation not found')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Back to conversations/ })).toHaveAttribute(
      'href',
      '/messages',
    )
  })
})

describe('a request’s conversation', () => {
  it('opens the thread of the request in place of the request’s address', async () => {
    server = fakeConversations({ messages: { c1: [message({ text: 'Hello there' })] } })
    const { router } = renderMessages({ at: '/messages/request/r1' })
    expect(await screen.findByText('Hello there')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/messages/c1')
    expect(router.state.historyAction).toBe('REPLACE')
  })

  it('says there is none after asking again', async () => {
    server = fakeConversations()
    renderMessages({ at: '/messages/request/unknown' })
    expect(
      await screen.findByRole('heading', { name: 'No conversation for this request' }),
    ).toBeInTheDocument()
    expect(
      server.calls.filter((call) => call === 'GET /api/conversations/by-request/unknown'),
    ).toHaveLength(3)
  })
})
