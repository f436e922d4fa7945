/**
 * Notification preference flags and their defaults: all on except mobile (spec 2 §3).
 */
export const NOTIFICATION_PREFERENCE_DEFAULTS = {
  emailEnabled: true,
  mobileEnabled: false,
  postRequestsEnabled: true,
  postFavoritesEnabled: true,
  requestStatusEnabled: true,
} as const

export type NotificationPreferences = {
  -readonly [K in keyof typeof NOTIFICATION_PREFERENCE_DEFAULTS]: boolean
}
