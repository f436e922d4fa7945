import type { NotificationView } from '@marketplace/contracts/api'
import type { EventData } from '@marketplace/contracts/events'
import type { NotificationDocument } from './notification-document'

/** A notification as the dropdown reads it: never the outbox or internals. */
export function notificationView(
  notification: Pick<
    NotificationDocument,
    '_id' | 'kind' | 'message' | 'link' | 'isRead' | 'createdAt' | 'actorId'
  >,
): NotificationView {
  return {
    _id: notification._id,
    kind: notification.kind,
    message: notification.message,
    link: notification.link,
    isRead: notification.isRead,
    // "status" says the same as isRead: the web app reads either.
    status: notification.isRead ? 'read' : 'unread',
    createdAt: notification.createdAt.toISOString(),
    ...(notification.actorId ? { actorId: notification.actorId } : {}),
  }
}

/** The same view, from the notification.created event every instance receives. */
export function viewOfCreatedEvent(data: EventData<'notification.created'>): NotificationView {
  return {
    _id: data.notificationId,
    kind: data.kind,
    message: data.message,
    link: data.link,
    isRead: false,
    status: 'unread',
    createdAt: data.createdAt,
  }
}
