import type { NotificationsPage } from '@marketplace/contracts/api'
import type { DomainEvent } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { NotFoundError, newEvent } from '@marketplace/service-kit'
import type { Recipients } from '../recipients/recipients-repository'
import { kindAllowed, notificationId, type NotificationDocument } from './notification-document'
import { notificationView } from './notification-view'
import type { NotificationsRepository } from './notifications-repository'
import { noticesOf, type Notice } from './notice-of-event'

/**
 * What recording an event did: stored its notification, or not because its kind is switched
 * off, it was stored before (a redelivery), or the event tells nobody (or is old news).
 */
export type RecordOutcome = 'stored' | 'switched-off' | 'repeated' | 'nothing'

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
  /** Whether either of two users blocked the other (docs/blocking.md). */
  isBlockedBetween?: (userId: string, otherId: string) => Promise<boolean>
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  /** Whether the event is too old to tell anyone (a replayed history is not news). */
  const isOldNews = (event: DomainEvent) =>
    now().getTime() - Date.parse(event.occurredAt) > deps.maxAgeMs

  /**
   * Stores each notice of the event (noticesOf); answers the outcome of the first, or
   * 'nothing' when the event tells nobody.
   */
  async function record(event: DomainEvent): Promise<RecordOutcome> {
    if (isOldNews(event)) return 'nothing'
    let first: RecordOutcome = 'nothing'
    for (const [index, notice] of noticesOf(event).entries()) {
      const outcome = await recordNotice(event, notice)
      if (index === 0) first = outcome
    }
    return first
  }

  async function recordNotice(event: DomainEvent, notice: Notice): Promise<RecordOutcome> {
    // Nothing from someone the recipient blocked or was blocked by (docs/blocking.md).
    const actorId = event.actorId && event.actorId !== notice.recipientId ? event.actorId : null
    if (actorId && (await deps.isBlockedBetween?.(notice.recipientId, actorId))) return 'nothing'
    // Counted before it is stored, so its event can carry the badge count (the push then
    // needs no read); taken back when it is switched off or was stored before.
    const counted = await deps.recipients.countIncoming(notice.recipientId)
    const { preferences, unreadCount } = counted
    if (!kindAllowed(notice.kind, preferences)) {
      await deps.recipients.uncount(notice.recipientId)
      return 'switched-off'
    }
    // The number the count gave it, unless the user's older notifications are not in
    // buckets yet: they are put there first, and it comes after them.
    const seq = counted.bucketed
      ? counted.seq
      : await deps.notifications.seqAfterFill(notice.recipientId)
    const at = now()
    const notification: NotificationDocument & { seq: number } = {
      _id: notice.id ?? notificationId(event.id, notice.recipientId),
      userId: notice.recipientId,
      kind: notice.kind,
      message: notice.message,
      link: notice.link,
      isRead: false,
      status: 'unread',
      createdAt: at,
      seq,
      // A moderator's take-down names no one to block.
      ...(actorId && notice.kind !== 'message-taken-down' ? { actorId } : {}),
    }
    // A redelivered event finds its notification stored and changes nothing.
    const stored = await deps.notifications.insert(notification, [
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
          unreadCount,
          ...(notice.savedSearchId ? { savedSearchId: notice.savedSearchId } : {}),
        },
      }),
    ])
    if (!stored) await deps.recipients.uncount(notice.recipientId)
    return stored ? 'stored' : 'repeated'
  }

  /**
   * The unread count kept on the user's head document (notifications-repository.ts says when
   * it is also counted and set right).
   */
  const unreadCount = (userId: string) => deps.notifications.unreadCount(userId)

  return {
    record,
    recordNotice,
    isOldNews,

    async page(userId: string, page: number, limit: number): Promise<NotificationsPage> {
      const { items, total, unreadCount } = await deps.notifications.page(userId, page, limit)
      return {
        notifications: items.map(notificationView),
        pagination: { current: page, pages: Math.ceil(total / limit), total },
        unreadCount,
      }
    },

    unreadCount,

    async markRead(id: string, userId: string): Promise<number> {
      // Someone else's notification is answered as if it did not exist.
      if (!(await deps.notifications.markRead(id, userId))) {
        throw new NotFoundError(Messages.notifications.notFound, 'NOTIFICATION_NOT_FOUND')
      }
      return unreadCount(userId)
    },

    async markAllRead(userId: string): Promise<number> {
      await deps.notifications.markAllRead(userId)
      return unreadCount(userId)
    },

    clearRead: (userId: string) => deps.notifications.clearRead(userId),

    /**
     * Marks a notification read because the user saw what it told elsewhere (they read the
     * conversation); nothing when it is gone (cleared, purged).
     */
    async markSeenElsewhere(id: string, userId: string): Promise<void> {
      if (await deps.notifications.markRead(id, userId)) await unreadCount(userId)
    },
  }
}

export type NotificationsService = ReturnType<typeof createNotificationsService>
