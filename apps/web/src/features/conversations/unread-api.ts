import type { UnreadTotal } from '@marketplace/contracts/api'
import type { RootState } from '@/app/store'
import { api } from '@/lib/api'

/** The API the conversations feature injects into (its reads carry the 'Conversations' tag). */
export const conversationsBaseApi = api

const UNREAD_TOTAL = { type: 'Conversations', id: 'UNREAD' } as const

/**
 * The unread messages total, the badge of "Messages" in the shell and the settings sidebar.
 * Apart from the rest of the feature because the shell is in every page's
 * JavaScript: the list, the thread and the live updates load later (docs/web-app.md
 * "Messages"). The live connection holds the one subscription (conversations-live.ts); the
 * badges only read the figure, so a page or a test without the connection fetches nothing.
 */
export const unreadApi = conversationsBaseApi.injectEndpoints({
  endpoints: (build) => ({
    getUnreadMessageTotal: build.query<number, void>({
      query: () => '/api/conversations/unread',
      transformResponse: (body: UnreadTotal) => body.unreadTotal,
      providesTags: [UNREAD_TOTAL],
    }),
  }),
})

const selectTotalEntry = unreadApi.endpoints.getUnreadMessageTotal.select()

/** The unread total as last read or pushed; 0 before the live connection read it. */
export const selectUnreadMessageTotal = (state: RootState): number =>
  selectTotalEntry(state).data ?? 0

/** The server's total replaces the one held (a read, a push, a list page). */
export const unreadTotalReceived = (total: number) =>
  unreadApi.util.updateQueryData('getUnreadMessageTotal', undefined, () => total)
