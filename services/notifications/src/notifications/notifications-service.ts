import type { DomainEvent } from '@marketplace/contracts/events'
import type { NotificationPreferences } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { NotFoundError, newEvent } from '@marketplace/service-kit'
import type { Recipients } from '../recipients/recipients-repository'
import {
  notificationId,
  type NotificationDocument,
  type NotificationKind,
} from './notification-document'
import { notificationView } from './notification-view'
import type { NotificationsRepository } from './notifications-repository'
import { noticeOf } from './notice-of-event'

/** The preference that switches each kind (spec 2 §2.5, §3). */
export const PREFERENCE_OF_KIND: Record<NotificationKind, keyof NotificationPreferences> = {
  'post-request': 'postRequestsEnabled',
  'request-status': 'requestStatusEnabled',
  'post-favorite': 'postFavoritesEnabled',
}

/**
 * Turns domain events into stored notifications (consumer group "notifications") and serves
 * the dropdown. A switched-off preference makes no notification at all. Storing one also
 * stores notification.created in its outbox: every instance pushes it to the sockets it
 * holds (live/), and the mail group e-mails it.
 */
export function createNotificationsService(deps: {
  notifications: NotificationsRepository
  recipients: Recipients
  /** Events older than this tell nobody (a replayed history is not news). */
  maxAgeMs: number
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  async function record(event: DomainEvent): Promise<void> {
    const notice = noticeOf(event)
    if (!notice) return
    if (now().getTime() - Date.parse(event.occurredAt) > deps.maxAgeMs) return
    const preferences = await deps.recipients.preferencesOf(notice.recipientId)
    if (!preferences[PREFERENCE_OF_KIND[notice.kind]]) return
    const at = now()
    const notification: NotificationDocument = {
      _id: notificationId(event.id, notice.recipientId),
      userId: notice.recipientId,
      kind: notice.kind,
      message: notice.message,
      link: notice.link,
      isRead: false,
      status: 'unread',
      createdAt: at,
    }
    // A redelivered event finds its notification stored and changes nothing.
    await deps.notifications.insert(notification, [
      newEvent('notification.created', {
        aggregateId: notice.recipientId,
        actorId: event.actorId,
        requestId: event.requestId,
        data: {
          notificationId: notification._id,
          userId: notice.recipientId,
          kind: notice.kind,
          message: notice.message,
          link: notice.link,
          createdAt: at.toISOString(),
        },
      }),
    ])
  }

  return {
    record,

    async page(userId: string, page: number, limit: number) {
      const [{ items, total }, unreadCount] = await Promise.all([
        deps.notifications.page(userId, page, limit),
        deps.notifications.unreadCount(userId),
      ])
      return {
        notifications: items.map(notificationView),
        pagination: { current: page, pages: Math.ceil(total / limit), total },
        unreadCount,
      }
    },

    unreadCount: (userId: string) => deps.notifications.unreadCount(userId),

    async markRead(id: string, userId: string): Promise<number> {
      // Someone else's notification is answered as if it did not exist.
      if (!(await deps.notifications.markRead(id, userId))) {
        throw new NotFoundError(Messages.notifications.notFound, 'NOTIFICATION_NOT_FOUND')
      }
      return deps.notifications.unreadCount(userId)
    },

    async markAllRead(userId: string): Promise<number> {
      await deps.notifications.markAllRead(userId)
      return deps.notifications.unreadCount(userId)
    },

    clearRead: (userId: string) => deps.notifications.clearRead(userId),
  }
}

export type NotificationsService = ReturnType<typeof createNotificationsService>
