import type { InfiniteData } from '@reduxjs/toolkit/query'
import type {
  NotificationsCleared,
  NotificationsMarkedRead,
  NotificationsPage,
  NotificationsUnreadCount,
  NotificationView,
} from '@marketplace/contracts/api'
import { NOTIFICATION_PAGE_SIZE } from '@marketplace/contracts/marketplace'
import type { RootState } from '@/app/store'
import { api } from '@/lib/api'

/**
 * The `notification` event of the live connection: a Socket.IO message, outside
 * the HTTP contracts, carrying the list's view of the notification and the unread count.
 */
export interface LiveNotification {
  notification: NotificationView
  count: number
}

type NotificationPages = InfiniteData<NotificationsPage, number>

const LIST = { type: 'Notifications', id: 'LIST' } as const
const COUNT = { type: 'Notifications', id: 'COUNT' } as const

const markRead = (notification: NotificationView) => {
  notification.isRead = true
  notification.status = 'read'
}

/** Every page keeps the same unread count, so whichever one is read agrees with the badge. */
const setPagesUnread = (draft: NotificationPages, count: number) => {
  for (const page of draft.pages) page.unreadCount = count
}

/**
 * The notifications of the bell. The list is one infinite query (pages 1..n, "Load More"
 * fetches the next); the badge reads the unread count. Writes patch both caches at once
 * and undo the patch when the server refuses.
 */
export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotifications: build.infiniteQuery<NotificationsPage, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, _allPages, lastPageParam) =>
          lastPage.pagination.current < lastPage.pagination.pages ? lastPageParam + 1 : undefined,
      },
      query: ({ pageParam }) =>
        `/api/notifications?page=${pageParam}&limit=${NOTIFICATION_PAGE_SIZE}`,
      providesTags: [LIST],
    }),
    getUnreadCount: build.query<number, void>({
      query: () => '/api/notifications/unread-count',
      transformResponse: (body: NotificationsUnreadCount) => body.count,
      providesTags: [COUNT],
    }),
    markNotificationRead: build.mutation<NotificationsMarkedRead, string>({
      query: (id) => ({
        url: `/api/notifications/${encodeURIComponent(id)}/read`,
        method: 'PATCH',
      }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const current = notificationsApi.endpoints.getUnreadCount.select()(
          getState() as RootState,
        ).data
        let wasUnread = false
        const list = dispatch(
          notificationsApi.util.updateQueryData('getNotifications', undefined, (draft) => {
            for (const page of draft.pages) {
              for (const notification of page.notifications) {
                if (notification._id !== id) continue
                wasUnread ||= !notification.isRead
                markRead(notification)
              }
            }
          }),
        )
        const optimistic = Math.max(0, (current ?? 0) - (wasUnread ? 1 : 0))
        const count = dispatch(
          notificationsApi.util.updateQueryData('getUnreadCount', undefined, () => optimistic),
        )
        try {
          const { data } = await queryFulfilled
          dispatch(unreadCountReceived(data.unreadCount))
        } catch {
          list.undo()
          count.undo()
        }
      },
    }),
    markAllNotificationsRead: build.mutation<NotificationsMarkedRead, void>({
      query: () => ({ url: '/api/notifications/mark-all-read', method: 'PATCH' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const list = dispatch(
          notificationsApi.util.updateQueryData('getNotifications', undefined, (draft) => {
            for (const page of draft.pages) page.notifications.forEach(markRead)
            setPagesUnread(draft, 0)
          }),
        )
        const count = dispatch(
          notificationsApi.util.updateQueryData('getUnreadCount', undefined, () => 0),
        )
        try {
          const { data } = await queryFulfilled
          dispatch(unreadCountReceived(data.unreadCount))
        } catch {
          list.undo()
          count.undo()
        }
      },
    }),
    clearReadNotifications: build.mutation<NotificationsCleared, void>({
      query: () => ({ url: '/api/notifications/clear-read', method: 'DELETE' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const list = dispatch(
          notificationsApi.util.updateQueryData('getNotifications', undefined, (draft) => {
            for (const page of draft.pages) {
              page.notifications = page.notifications.filter((n) => !n.isRead)
            }
          }),
        )
        try {
          await queryFulfilled
        } catch {
          list.undo()
        }
      },
      // The pages shifted on the server: read them again for the right "Load More".
      invalidatesTags: [LIST],
    }),
  }),
})

/** The server's unread count replaces the one held (badge and list). */
export function unreadCountReceived(count: number) {
  return (dispatch: (action: unknown) => unknown) => {
    dispatch(notificationsApi.util.updateQueryData('getUnreadCount', undefined, () => count))
    dispatch(
      notificationsApi.util.updateQueryData('getNotifications', undefined, (draft) =>
        setPagesUnread(draft, count),
      ),
    )
  }
}

/**
 * A live notification goes on top of the first page and the unread count becomes
 * the one the server sent. A notification already held is a repeat (the server publishes at
 * least once) or was stored before the list was read: it is not added twice, and its count,
 * taken when it was stored, is older than the one held, so it is ignored. Answers whether the
 * notification was new.
 */
export function liveNotificationReceived({ notification, count }: LiveNotification) {
  return (dispatch: (action: unknown) => unknown): boolean => {
    let held = false
    dispatch(
      notificationsApi.util.updateQueryData('getNotifications', undefined, (draft) => {
        const first = draft.pages[0]
        if (!first) return
        held = draft.pages.some((page) =>
          page.notifications.some((n) => n._id === notification._id),
        )
        if (held) return
        first.notifications.unshift(notification)
        for (const page of draft.pages) {
          page.pagination.total += 1
          page.pagination.pages = Math.max(
            page.pagination.pages,
            Math.ceil(page.pagination.total / NOTIFICATION_PAGE_SIZE),
          )
        }
      }),
    )
    if (held) return false
    dispatch(unreadCountReceived(count))
    return true
  }
}

/** After a gap in the live connection: read the list and the count again. */
export const notificationsMayHaveBeenMissed = () => api.util.invalidateTags([LIST, COUNT])

/** The held pages as one list, newest first; an item shifted onto the next page shows once. */
export function flattenNotifications(data: NotificationPages | undefined): NotificationView[] {
  if (!data) return []
  const seen = new Set<string>()
  const all: NotificationView[] = []
  for (const page of data.pages) {
    for (const notification of page.notifications) {
      if (seen.has(notification._id)) continue
      seen.add(notification._id)
      all.push(notification)
    }
  }
  return all
}

export const {
  useGetNotificationsInfiniteQuery,
  useGetUnreadCountQuery,
  useMarkNotificationReadMutation,
  useMarkAllNotificationsReadMutation,
  useClearReadNotificationsMutation,
} = notificationsApi
