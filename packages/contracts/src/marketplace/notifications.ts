/**
 * Notification preference flags and their defaults: all on except mobile.
 * `messagesEnabled` ("Messages"): the notice and e-mail of a new message for a user
 * with no open socket (docs/notifications.md).
 */
export const NOTIFICATION_PREFERENCE_DEFAULTS = {
  emailEnabled: true,
  mobileEnabled: false,
  postRequestsEnabled: true,
  postFavoritesEnabled: true,
  requestStatusEnabled: true,
  messagesEnabled: true,
} as const

export type NotificationPreferences = {
  -readonly [K in keyof typeof NOTIFICATION_PREFERENCE_DEFAULTS]: boolean
}
