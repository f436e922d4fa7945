import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import { jsonResponse, stubFetch } from '@/test/helpers'
import {
  conversation,
  fakeConversations,
  ME,
  message,
  renderMessages,
} from '@/test/conversations-helpers'
import { followConversations } from '@/features/conversations/conversations-live'
import { selectUnreadMessageTotal } from '@/features/conversations/unread-api'

let server: ReturnType<typeof fakeConversations> | null = null
let otherStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => {
  server?.stub.restore()
  server = null
  otherStub?.restore()
  otherStub = null
})

const isListRead = (call: string) =>
  call === 'GET /api/conversations' || call.startsWith('GET /api/conversations?')
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()
const list = () => screen.getByRole('list', { name: 'Conversations' })
const rowNames = () =>
  within(list())
    .getAllByRole('link')
    .map((link) => link.querySelector('.conversation-name')?.textContent)

describe('the conversation list', () => {
  it('shows each conversation with its person, post, last message, time and unread count', async () => {
    server = fakeConversations({
      conversations: [
        conversation({
          _id: 'c1',
          otherParty: { userId: 'u2', name: 'Mia Member', profilePicture: null },
          postTitle: 'Move a piano',
          lastMessage: { text: 'See you Saturday', senderId: ME, sentAt: ago(5) },
          lastActivityAt: ago(5),
        }),
        conversation({
          _id: 'c2',
          otherParty: { userId: 'u3', name: 'Wes Worker', profilePicture: 'userImages/u3/me.png' },
          postTitle: 'Paint my fence',
          lastMessage: { text: 'I can start Monday', senderId: 'u3', sentAt: ago(2) },
          lastActivityAt: ago(2),
          unreadCount: 2,
        }),
      ],
    })
    renderMessages()
    await screen.findByRole('list', { name: 'Conversations' })
    expect(rowNames()).toEqual(['Wes Worker', 'Mia Member'])
    const [wes, mia] = within(list()).getAllByRole('link')
    expect(wes).toHaveAttribute('href', '/messages/c2')
    expect(wes).toHaveTextContent('Paint my fence')
    expect(wes).toHaveTextContent('I can start Monday')
    expect(wes).toHaveTextContent('2 minutes ago')
    expect(wes).toHaveTextContent(', 2 unread')
    // The person's picture: the 160 px square variant (WebP, and PNG as the PNG's fallback).
    expect(wes!.querySelector('img')).toHaveAttribute('src', '/userImages/u3/me.avatar.png')
    expect(wes!.querySelector('img')).toHaveAttribute('sizes', '40px')
    expect(wes!.querySelector('source')).toHaveAttribute(
      'srcset',
      '/userImages/u3/me.avatar.webp 160w, /userImages/u3/me.w480.webp 480w',
    )
    expect(mia).toHaveTextContent('You: See you Saturday')
    expect(within(mia!).getByText('MM')).toBeInTheDocument()
    expect(mia).not.toHaveTextContent('unread')
  })

  it('says "No messages yet" for a conversation without any', async () => {
    server = fakeConversations()
    renderMessages()
    const rows = await screen.findByRole('list', { name: 'Conversations' })
    expect(within(rows).getByText('No messages yet')).toBeInTheDocument()
  })

  it('shows an empty state when there is no conversation', async () => {
    server = fakeConversations({ conversations: [] })
    renderMessages()
    expect(await screen.findByText('No conversations yet')).toBeInTheDocument()
  })

  it('says "Loading conversations..." first, and offers a retry when the list fails', async () => {
    let release = () => {}
    const hold = new Promise<void>((resolve) => (release = resolve))
    otherStub = stubFetch(async () => {
      await hold
      return jsonResponse(400, { message: 'No' })
    })
    renderMessages()
    expect(screen.getByText('Loading conversations...')).toBeInTheDocument()
    release()
    expect(await screen.findByText('Failed to load conversations')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('loads more by cursor', async () => {
    server = fakeConversations({
      pageSize: 1,
      conversations: [
        conversation({ _id: 'c1', lastActivityAt: ago(1) }),
        conversation({
          _id: 'c2',
          lastActivityAt: ago(10),
          otherParty: { userId: 'u3', name: 'Wes Worker', profilePicture: null },
        }),
      ],
    })
    const user = userEvent.setup()
    renderMessages()
    await screen.findByRole('list', { name: 'Conversations' })
    expect(rowNames()).toEqual(['Mia Member'])
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(rowNames()).toEqual(['Mia Member', 'Wes Worker']))
    expect(server.calls).toContain('GET /api/conversations?cursor=1')
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('moves a conversation to the top with its new message and counts when one is pushed', async () => {
    server = fakeConversations({
      conversations: [
        conversation({ _id: 'c1', lastActivityAt: ago(1) }),
        conversation({
          _id: 'c2',
          lastActivityAt: ago(10),
          otherParty: { userId: 'u3', name: 'Wes Worker', profilePicture: null },
        }),
      ],
    })
    const store = createStore()
    renderMessages({ store })
    await screen.findByRole('list', { name: 'Conversations' })
    const live = followConversations(store.dispatch, ME)
    await waitFor(() => expect(server?.calls).toContain('GET /api/conversations/unread'))
    const pushed = message({
      conversationId: 'c2',
      senderId: 'u3',
      text: 'On my way',
      sentAt: new Date().toISOString(),
    })
    act(() =>
      live.message({
        message: pushed,
        senderName: 'Wes Worker',
        postTitle: 'Move a piano',
        unreadCount: 1,
        unreadTotal: 4,
      }),
    )
    // RTK batches the cache's notifications to the next frame.
    await waitFor(() => expect(rowNames()).toEqual(['Wes Worker', 'Mia Member']))
    expect(within(list()).getAllByRole('link')[0]).toHaveTextContent('On my way')
    expect(within(list()).getAllByRole('link')[0]).toHaveTextContent(', 1 unread')
    expect(selectUnreadMessageTotal(store.getState())).toBe(4)
    // Patched in place: the list is not read again.
    expect(server.calls.filter(isListRead)).toEqual(['GET /api/conversations'])
    live.stop()
  })

  it('reads the list again once for a message of a conversation it does not hold', async () => {
    server = fakeConversations()
    const store = createStore()
    renderMessages({ store })
    await screen.findByRole('list', { name: 'Conversations' })
    const live = followConversations(store.dispatch, ME)
    server.conversations.unshift(
      conversation({
        _id: 'c9',
        otherParty: { userId: 'u9', name: 'Nina New', profilePicture: null },
        lastActivityAt: new Date().toISOString(),
      }),
    )
    act(() =>
      live.message({
        message: message({ conversationId: 'c9', senderId: 'u9', text: 'Hello!' }),
        senderName: 'Nina New',
        postTitle: 'Move a piano',
        unreadCount: 1,
        unreadTotal: 1,
      }),
    )
    await waitFor(() => expect(rowNames()).toEqual(['Nina New', 'Mia Member']))
    expect(server.calls.filter(isListRead)).toHaveLength(2)
    live.stop()
  })
})
