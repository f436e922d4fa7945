import type { NotificationsPage, NotificationView } from '@marketplace/contracts/api'
import { createStore, type AppStore } from '@/app/store'
import {
  flattenNotifications,
  liveNotificationReceived,
  notificationsApi,
} from '@/features/notifications/notifications-api'

const note = (id: string, isRead = true): NotificationView => ({
  _id: id,
  kind: 'post-favorite',
  message: `Message ${id}`,
  link: '/settings-employer-jobs',
  isRead,
  status: isRead ? 'read' : 'unread',
  createdAt: '2026-11-23T10:00:00.000Z',
})

const page = (current: number, ids: string[], total: number): NotificationsPage => ({
  notifications: ids.map((id) => note(id)),
  pagination: { current, pages: Math.ceil(total / 10), total },
  unreadCount: 0,
})

/** A store holding two pages of the list and the count, as if fetched. */
async function storeWithPages(): Promise<AppStore> {
  const store = createStore()
  const first = Array.from({ length: 10 }, (_, i) => `n${i + 1}`)
  await store.dispatch(
    notificationsApi.util.upsertQueryEntries([
      { endpointName: 'getUnreadCount', arg: undefined, value: 0 },
    ]),
  )
  await store.dispatch(
    notificationsApi.util.upsertQueryData('getNotifications', undefined, {
      pages: [page(1, first, 11), page(2, ['n11'], 11)],
      pageParams: [1, 2],
    }),
  )
  return store
}

const listOf = (store: AppStore) =>
  notificationsApi.endpoints.getNotifications.select(undefined)(store.getState()).data
const countOf = (store: AppStore) =>
  notificationsApi.endpoints.getUnreadCount.select(undefined)(store.getState()).data

describe('liveNotificationReceived', () => {
  it('puts the notification on top of the first page and takes the server count', async () => {
    const store = await storeWithPages()
    store.dispatch(liveNotificationReceived({ notification: note('live', false), count: 7 }))
    const list = listOf(store)
    expect(list?.pages[0]?.notifications[0]?._id).toBe('live')
    expect(list?.pages[0]?.pagination.total).toBe(12)
    expect(list?.pages.map((p) => p.unreadCount)).toEqual([7, 7])
    expect(countOf(store)).toBe(7)
    expect(flattenNotifications(list)).toHaveLength(12)
  })

  it('answers whether the notification was new', async () => {
    const store = await storeWithPages()
    expect(store.dispatch(liveNotificationReceived({ notification: note('live'), count: 1 }))).toBe(
      true,
    )
    expect(store.dispatch(liveNotificationReceived({ notification: note('live'), count: 1 }))).toBe(
      false,
    )
  })

  it('neither adds a notification it already holds nor takes its older count', async () => {
    // The list was read after n11 was stored (or n11 came before): the count held is newer.
    const store = await storeWithPages()
    store.dispatch(liveNotificationReceived({ notification: note('live', false), count: 1 }))
    store.dispatch(liveNotificationReceived({ notification: note('n11', false), count: 3 }))
    expect(flattenNotifications(listOf(store))).toHaveLength(12)
    expect(countOf(store)).toBe(1)
  })
})

describe('flattenNotifications', () => {
  it('shows once an item that shifted onto the next page', () => {
    const list = {
      pages: [page(1, ['a', 'b'], 3), page(2, ['b', 'c'], 3)],
      pageParams: [1, 2],
    }
    expect(flattenNotifications(list).map((n) => n._id)).toEqual(['a', 'b', 'c'])
  })
})
