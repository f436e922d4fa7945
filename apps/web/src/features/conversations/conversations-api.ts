import type { RootState } from '@/app/store'
import type { InfiniteData } from '@reduxjs/toolkit/query'
import type {
  ConversationList,
  ConversationRead,
  ConversationView,
  MessageHistory,
  MessageReported,
  MessageView,
  ReportMessageBody,
} from '@marketplace/contracts/api'
import { conversationsBaseApi, unreadTotalReceived } from '@/features/conversations/unread-api'

type ConversationPages = InfiniteData<ConversationList, string | null>
type MessagePages = InfiniteData<MessageHistory, string | null>
type Dispatch = (action: unknown) => unknown
type GetState = () => unknown

const LIST = { type: 'Conversations', id: 'LIST' } as const
const conversationTag = (id: string) => ({ type: 'Conversations' as const, id: `view:${id}` })
const messagesTag = (id: string) => ({ type: 'Conversations' as const, id: `messages:${id}` })
const byId = (id: string) => encodeURIComponent(id)

/** The figure of the freshest page: the last one fetched, whether by "load more" or a refetch. */
const latestUnreadTotal = (data: ConversationPages) => data.pages.at(-1)?.unreadTotal

/**
 * The conversations service (docs/conversations.md): the list (newest activity
 * first, by cursor), a conversation, its messages (newest first, `before` a cursor), send,
 * mark read, report. The live connection and the sends patch these caches in place
 * (messageReceived and the others below), so a push costs no request.
 */
export const conversationsApi = conversationsBaseApi.injectEndpoints({
  endpoints: (build) => ({
    getConversations: build.infiniteQuery<ConversationList, void, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
      },
      query: ({ pageParam }) =>
        pageParam ? `/api/conversations?cursor=${byId(pageParam)}` : '/api/conversations',
      providesTags: [LIST],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const total = latestUnreadTotal((await queryFulfilled).data)
          if (total !== undefined) dispatch(unreadTotalReceived(total))
        } catch {
          // The list shows its own error.
        }
      },
    }),
    getConversation: build.query<ConversationView, string>({
      query: (id) => `/api/conversations/${byId(id)}`,
      providesTags: (_result, _error, id) => [conversationTag(id)],
    }),
    getConversationByRequest: build.query<ConversationView, string>({
      query: (requestId) => `/api/conversations/by-request/${byId(requestId)}`,
      providesTags: (result) => (result ? [conversationTag(result._id)] : []),
      async onQueryStarted(_requestId, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled
          void dispatch(conversationsApi.util.upsertQueryData('getConversation', data._id, data))
        } catch {
          // The page says there is none.
        }
      },
    }),
    getMessages: build.infiniteQuery<MessageHistory, string, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
      },
      query: ({ queryArg, pageParam }) =>
        pageParam
          ? `/api/conversations/${byId(queryArg)}/messages?before=${byId(pageParam)}`
          : `/api/conversations/${byId(queryArg)}/messages`,
      providesTags: (_result, _error, id) => [messagesTag(id)],
    }),
    sendMessage: build.mutation<
      MessageView,
      { conversationId: string; text: string; clientId: string }
    >({
      query: ({ conversationId, text, clientId }) => ({
        url: `/api/conversations/${byId(conversationId)}/messages`,
        method: 'POST',
        body: { text, clientId },
      }),
    }),
    markConversationRead: build.mutation<ConversationRead, string>({
      query: (id) => ({ url: `/api/conversations/${byId(id)}/read`, method: 'POST' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled
          dispatch(unreadCountSet(id, data.unreadCount))
          dispatch(unreadTotalReceived(data.unreadTotal))
        } catch {
          // Read again at the next message or visit.
        }
      },
    }),
    reportMessage: build.mutation<
      MessageReported,
      { conversationId: string; messageId: string } & ReportMessageBody
    >({
      query: ({ conversationId, messageId, ...body }) => ({
        url: `/api/conversations/${byId(conversationId)}/messages/${byId(messageId)}/report`,
        method: 'POST',
        body,
      }),
    }),
  }),
})

const sameMessage = (a: MessageView, b: MessageView) =>
  a._id === b._id || (a.clientId !== null && a.clientId === b.clientId)

const isNewer = (sentAt: string, than: string) => Date.parse(sentAt) >= Date.parse(than)

/** A conversation's row, wherever it is in the held pages, with the page it sits on. */
function findRow(draft: ConversationPages, conversationId: string) {
  for (const page of draft.pages) {
    const index = page.items.findIndex((item) => item._id === conversationId)
    if (index >= 0) return { page, index, row: page.items[index]! }
  }
  return null
}

/** One conversation's unread count, in its row and its view (after a read, here or elsewhere). */
export function unreadCountSet(conversationId: string, unreadCount: number) {
  return (dispatch: Dispatch) => {
    dispatch(
      conversationsApi.util.updateQueryData('getConversations', undefined, (draft) => {
        const found = findRow(draft, conversationId)
        if (found) found.row.unreadCount = unreadCount
      }),
    )
    dispatch(
      conversationsApi.util.updateQueryData('getConversation', conversationId, (draft) => {
        draft.unreadCount = unreadCount
      }),
    )
  }
}

export interface ReceivedCounts {
  /** The recipient's unread count in this conversation and in all, when the push carries them. */
  unreadCount?: number
  unreadTotal?: number
}

/**
 * A message the server stored (a send's answer, or a push from the live connection) joins
 * its thread once, dedupe by _id and by the sender's clientId (a retried send, the answer
 * and the push of the same message). Its conversation's row and view take it as their last
 * message, the row moves to the top, and the counts the push carries replace the held ones.
 * A conversation the held list does not have yet (opened since it was read) has the list
 * read again, once. Answers whether the thread did not hold the message yet.
 */
export function messageReceived(message: MessageView, counts: ReceivedCounts = {}) {
  return (dispatch: Dispatch, getState: GetState): boolean => {
    const { conversationId } = message
    let added = false
    dispatch(
      conversationsApi.util.updateQueryData('getMessages', conversationId, (draft) => {
        for (const page of draft.pages) {
          const held = page.items.find((item) => sameMessage(item, message))
          if (!held) continue
          // A push that raced a read or a take-down must not undo them.
          Object.assign(held, message, {
            seen: held.seen || message.seen,
            takenDown: held.takenDown || message.takenDown,
            text: held.takenDown ? '' : message.text,
          })
          return
        }
        const first = draft.pages[0]
        if (!first) return
        first.items.unshift(message)
        added = true
      }),
    )
    const last = { text: message.text, senderId: message.senderId, sentAt: message.sentAt }
    const list = conversationsApi.endpoints.getConversations.select()(getState() as RootState).data
    let listed = false
    dispatch(
      conversationsApi.util.updateQueryData('getConversations', undefined, (draft) => {
        const found = findRow(draft, conversationId)
        if (!found) return
        listed = true
        const { page, index, row } = found
        if (counts.unreadCount !== undefined) row.unreadCount = counts.unreadCount
        if (!isNewer(message.sentAt, row.lastActivityAt)) return
        row.lastMessage = last
        row.lastActivityAt = message.sentAt
        page.items.splice(index, 1)
        draft.pages[0]?.items.unshift(row)
      }),
    )
    if (list && !listed) dispatch(conversationsApi.util.invalidateTags([LIST]))
    dispatch(
      conversationsApi.util.updateQueryData('getConversation', conversationId, (draft) => {
        if (counts.unreadCount !== undefined) draft.unreadCount = counts.unreadCount
        if (!isNewer(message.sentAt, draft.lastActivityAt)) return
        draft.lastMessage = last
        draft.lastActivityAt = message.sentAt
      }),
    )
    if (counts.unreadTotal !== undefined) dispatch(unreadTotalReceived(counts.unreadTotal))
    return added
  }
}

/** The other party read the conversation up to `readAt`: my messages until then are "Seen". */
export function readByOtherParty(conversationId: string, myId: string, readAt: string) {
  return conversationsApi.util.updateQueryData('getMessages', conversationId, (draft) => {
    for (const page of draft.pages) {
      for (const item of page.items) {
        if (item.senderId === myId && Date.parse(item.sentAt) <= Date.parse(readAt)) {
          item.seen = true
        }
      }
    }
  })
}

/**
 * A moderator took a message down: hidden for both parties at once. The row's last message
 * may be that one, and the list does not say which message it is: the list and the view are
 * read again (a take-down is rare).
 */
export function messageTakenDown(conversationId: string, messageId: string) {
  return (dispatch: Dispatch) => {
    dispatch(
      conversationsApi.util.updateQueryData('getMessages', conversationId, (draft) => {
        for (const page of draft.pages) {
          const held = page.items.find((item) => item._id === messageId)
          if (held) {
            held.takenDown = true
            held.text = ''
          }
        }
      }),
    )
    dispatch(conversationsApi.util.invalidateTags([LIST, conversationTag(conversationId)]))
  }
}

/** A 409 on send: the conversation became read-only; read its view again for the reason. */
export const conversationChanged = (conversationId: string) =>
  conversationsApi.util.invalidateTags([conversationTag(conversationId)])

/**
 * After a gap in the live connection everything read of the conversations may be stale (the
 * list, the views, the histories, the unread total): read it again.
 */
export const conversationsMayHaveBeenMissed = () =>
  conversationsApi.util.invalidateTags(['Conversations'])

/** The held list as one, newest activity first; a row moved between pages shows once. */
export function flattenConversations(data: ConversationPages | undefined): ConversationView[] {
  if (!data) return []
  const seen = new Set<string>()
  const all: ConversationView[] = []
  for (const page of data.pages) {
    for (const item of page.items) {
      if (seen.has(item._id)) continue
      seen.add(item._id)
      all.push(item)
    }
  }
  return all.sort((a, b) => Date.parse(b.lastActivityAt) - Date.parse(a.lastActivityAt))
}

/** The held messages oldest first, each once, as the thread shows them. */
export function flattenMessages(data: MessagePages | undefined): MessageView[] {
  if (!data) return []
  const byKey = new Map<string, MessageView>()
  for (const page of data.pages) {
    for (const item of page.items) if (!byKey.has(item._id)) byKey.set(item._id, item)
  }
  return [...byKey.values()].sort(
    (a, b) => Date.parse(a.sentAt) - Date.parse(b.sentAt) || a._id.localeCompare(b._id),
  )
}

export const {
  useGetConversationsInfiniteQuery,
  useGetConversationQuery,
  useGetConversationByRequestQuery,
  useGetMessagesInfiniteQuery,
  useSendMessageMutation,
  useMarkConversationReadMutation,
  useReportMessageMutation,
} = conversationsApi
