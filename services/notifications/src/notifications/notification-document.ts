import type { EventData } from '@marketplace/contracts/events'
import type { NotificationPreferences } from '@marketplace/contracts/marketplace'
import type { OutboxFields } from '@marketplace/service-kit'

export const NOTIFICATIONS_COLLECTION = 'notifications'

/** Requests, request decisions and favorites, and the two kinds the conversations service causes. */
export type NotificationKind = EventData<'notification.created'>['kind']

/**
 * The preference that switches each kind off (the settings page's switches), both
 * its notification and its mail. A take-down is a moderator's word to the author and is
 * always told (docs/notifications.md).
 */
export const PREFERENCE_OF_KIND: Record<NotificationKind, keyof NotificationPreferences | null> = {
  'post-request': 'postRequestsEnabled',
  'request-status': 'requestStatusEnabled',
  'post-favorite': 'postFavoritesEnabled',
  'new-message': 'messagesEnabled',
  'message-taken-down': null,
  // The owner's own post is about to leave the feed: told whatever the switches, as a
  // take-down is (its e-mail still follows emailEnabled).
  'post-expiring': null,
  // The user saved the search and chose its alerts there (paused, e-mail), so no switch here.
  'saved-search': null,
}

/** Whether the preferences let a notification of this kind be stored (and mailed). */
export function kindAllowed(kind: NotificationKind, preferences: NotificationPreferences): boolean {
  const flag = PREFERENCE_OF_KIND[kind]
  return flag === null || preferences[flag]
}

/**
 * One notice to one user. The id is the causing event's id and the recipient, so a
 * redelivered event names the same document and is stored once. The document carries the
 * notice's outbox (notification.created) and says where the notice is listed (`seq`); the
 * dropdown reads the notice's copy in its bucket (notification-buckets.ts), which is also
 * where "read" is kept.
 */
export interface NotificationDocument extends OutboxFields {
  _id: string
  userId: string
  kind: NotificationKind
  message: string
  link: string
  /**
   * As stored: false for a new notice. Only notices stored before the buckets existed carry
   * their later state here; the one-time fill of their user's buckets copies it.
   */
  isRead: boolean
  /** "unread" or "read", kept with isRead: the web app reads either. */
  status: 'unread' | 'read'
  createdAt: Date
  /** Its number in the user's history (1, 2, ...): which bucket lists it. */
  seq?: number
  /** When it was pushed to the recipient's devices: set once, so it is pushed once. */
  pushedAt?: Date
  /** The user who caused it, for the web app's "Block" on it (docs/blocking.md). */
  actorId?: string
}

export const notificationId = (eventId: string, recipientId: string) => `${eventId}:${recipientId}`
