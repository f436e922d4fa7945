import type { EventData } from '@marketplace/contracts/events'
import type { OutboxFields } from '@marketplace/service-kit'

export const NOTIFICATIONS_COLLECTION = 'notifications'

/** The three types of spec 2 §2.5, each switched by its own preference. */
export type NotificationKind = EventData<'notification.created'>['kind']

/**
 * One notice to one user (spec 1 §3 "Notification"). The id is the causing event's id and the
 * recipient, so a redelivered event names the same document and is stored once.
 */
export interface NotificationDocument extends OutboxFields {
  _id: string
  userId: string
  kind: NotificationKind
  message: string
  link: string
  isRead: boolean
  /** "unread" or "read", kept with isRead: the web app reads either (spec 1 §3). */
  status: 'unread' | 'read'
  createdAt: Date
}

export const notificationId = (eventId: string, recipientId: string) => `${eventId}:${recipientId}`
