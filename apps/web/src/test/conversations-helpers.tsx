import type { ConversationView, MessageView } from '@marketplace/contracts/api'
import { createStore, type AppStore } from '@/app/store'
import { jsonResponse, renderRoutes, sampleUser, signIn, stubFetch } from '@/test/helpers'
import MessagesPage from '@/features/conversations/MessagesPage'
import RequestThreadPage from '@/features/conversations/RequestThreadPage'
import ThreadPage from '@/features/conversations/ThreadPage'

/** The signed-in user of these tests is sampleUser (u1, Ava Turner); the other party is Mia. */
export const ME = sampleUser._id
export const MIA = 'u2'

export const conversation = (changes: Partial<ConversationView> = {}): ConversationView => ({
  _id: 'c1',
  requestKind: 'post-request',
  requestId: 'r1',
  postId: 'p1',
  postTitle: 'Move a piano',
  otherParty: { userId: MIA, name: 'Mia Member', profilePicture: null },
  lastMessage: null,
  lastActivityAt: '2026-11-24T09:00:00.000Z',
  unreadCount: 0,
  readOnly: null,
  readOnlyMessage: null,
  openedAt: '2026-11-24T09:00:00.000Z',
  ...changes,
})

let sequence = 0
export const message = (changes: Partial<MessageView> = {}): MessageView => {
  sequence += 1
  return {
    _id: `m${sequence}`,
    conversationId: 'c1',
    senderId: MIA,
    text: `Message ${sequence}`,
    sentAt: new Date(Date.UTC(2026, 10, 24, 9, sequence)).toISOString(),
    clientId: null,
    seen: false,
    takenDown: false,
    ...changes,
  }
}

export interface FakeConversationsOptions {
  conversations?: ConversationView[]
  /** Per conversation, newest LAST (as a thread shows them); served newest first, by pages. */
  messages?: Record<string, MessageView[]>
  pageSize?: number
  unreadTotal?: number
  /** Answers a send instead of storing it (a failure); called with the body. */
  refuseSend?: (body: { text: string; clientId: string }) => Response | null
  /** Holds every list and history answer until released. */
  hold?: Promise<void>
}

/**
 * A small conversations service over a stubbed fetch: the list (cursor pages), the unread
 * total, a conversation, by-request, the history (`before` pages, newest first), send (stored
 * once per clientId), read and report. Records every call as "METHOD /path?query".
 */
export function fakeConversations(options: FakeConversationsOptions = {}) {
  const pageSize = options.pageSize ?? 30
  const conversations = [...(options.conversations ?? [conversation()])]
  const messages: Record<string, MessageView[]> = Object.fromEntries(
    Object.entries(options.messages ?? {}).map(([id, list]) => [id, [...list]]),
  )
  let unreadTotal = options.unreadTotal ?? conversations.reduce((n, c) => n + c.unreadCount, 0)
  const calls: string[] = []
  const sent: { text: string; clientId: string }[] = []
  const reports: unknown[] = []

  const page = <T,>(items: T[], start: number) => ({
    items: items.slice(start, start + pageSize),
    nextCursor: start + pageSize < items.length ? String(start + pageSize) : null,
  })

  const stub = stubFetch(async (path, request) => {
    const url = new URL(request.url)
    calls.push(`${request.method} ${path}${url.search}`)
    if (options.hold && request.method === 'GET' && path !== '/api/conversations/unread') {
      await options.hold
    }
    if (path === '/api/conversations/unread') return jsonResponse(200, { unreadTotal })
    if (path === '/api/conversations') {
      return jsonResponse(200, {
        ...page(conversations, Number(url.searchParams.get('cursor') ?? 0)),
        unreadTotal,
      })
    }
    const byRequest = path.match(/^\/api\/conversations\/by-request\/([^/]+)$/)
    if (byRequest) {
      const found = conversations.find((c) => c.requestId === byRequest[1])
      return found ? jsonResponse(200, found) : jsonResponse(404, { message: 'Not found' })
    }
    const match = path.match(/^\/api\/conversations\/([^/]+)(\/.*)?$/)
    const found = match && conversations.find((c) => c._id === match[1])
    if (!match || !found) return jsonResponse(404, { message: 'Conversation not found' })
    const rest = match[2] ?? ''
    const thread = (messages[found._id] ??= [])
    if (rest === '' && request.method === 'GET') return jsonResponse(200, found)
    if (rest === '/messages' && request.method === 'GET') {
      const newestFirst = [...thread].reverse()
      return jsonResponse(200, page(newestFirst, Number(url.searchParams.get('before') ?? 0)))
    }
    if (rest === '/messages' && request.method === 'POST') {
      const body = (await request.json()) as { text: string; clientId: string }
      sent.push(body)
      const refused = options.refuseSend?.(body)
      if (refused) return refused
      const stored =
        thread.find((m) => m.clientId === body.clientId) ??
        message({
          conversationId: found._id,
          senderId: ME,
          text: body.text,
          clientId: body.clientId,
        })
      if (!thread.includes(stored)) thread.push(stored)
      return jsonResponse(201, stored)
    }
    if (rest === '/read' && request.method === 'POST') {
      unreadTotal -= found.unreadCount
      found.unreadCount = 0
      return jsonResponse(200, { unreadCount: 0, unreadTotal })
    }
    const report = rest.match(/^\/messages\/([^/]+)\/report$/)
    if (report && request.method === 'POST') {
      reports.push({ messageId: report[1], ...((await request.json()) as object) })
      return jsonResponse(201, { reportId: 'rep1', message: 'Report submitted' })
    }
    return jsonResponse(404, { message: 'Not found' })
  })

  return {
    calls,
    sent,
    reports,
    conversations,
    messages,
    stub,
    setUnreadTotal(total: number) {
      unreadTotal = total
    },
  }
}

/**
 * The messages area as the router nests it (list, thread, by-request), signed in as
 * sampleUser, at `at`. A request's conversation not found is asked again twice, 10 ms apart.
 */
export function renderMessages({
  at = '/messages',
  store = createStore(),
}: { at?: string; store?: AppStore } = {}) {
  signIn(store)
  return renderRoutes(
    [
      {
        path: '/messages',
        element: <MessagesPage />,
        children: [
          { path: '/messages/:conversationId', element: <ThreadPage /> },
          {
            path: '/messages/request/:requestId',
            element: <RequestThreadPage retries={{ attempts: 2, delayMs: 10 }} />,
          },
        ],
      },
    ],
    { at, store },
  )
}
