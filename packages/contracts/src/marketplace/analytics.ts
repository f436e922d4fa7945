/**
 * Product analytics: what the web app reports about its own use, sent in
 * small batches to the gateway's `POST /api/analytics/events` and published to the
 * `analytics.events` topic for whatever warehouse reads it. Anonymous by design: a random id
 * per browser tab, never a user id, e-mail or anything typed into a form.
 */
export const ANALYTICS_EVENTS_PATH = '/api/analytics/events'
export const ANALYTICS_TOPIC = 'analytics.events'

export const ANALYTICS_EVENT_NAMES = [
  /** A route was shown; `path` is the route. */
  'page_view',
  /** An uncaught error, unhandled rejection or failed render: props message, name, stack, type, url. */
  'client_error',
  /** The help page was opened. */
  'help_viewed',
  /** A support or contact message was accepted: props channel ('support' | 'contact'). */
  'support_ticket_created',
  /** A support or contact message failed: props channel, status. */
  'support_ticket_failed',
  /** A worker profile was saved: props completion (filled fields out of PROFILE_COMPLETION_FIELDS). */
  'worker_profile_saved',
] as const
export type AnalyticsEventName = (typeof ANALYTICS_EVENT_NAMES)[number]

export const ANALYTICS_DEVICE_TYPES = ['mobile', 'desktop'] as const
export type AnalyticsDeviceType = (typeof ANALYTICS_DEVICE_TYPES)[number]

/** Worker-profile fields counted for completion (six). */
export const PROFILE_COMPLETION_FIELDS = [
  'title',
  'skills',
  'availability',
  'paymentType',
  'location',
  'infos',
] as const

export const ANALYTICS_LIMITS = {
  /** Events in one request; the client flushes before it reaches this. */
  batchMax: 20,
  pathMax: 512,
  /** Keys in `props`. */
  propsMax: 10,
  /** Characters of one string value in `props` (a stack trace is cut to this). */
  propValueMax: 2000,
  sessionIdPattern: '^[A-Za-z0-9_-]{8,64}$',
} as const

export type AnalyticsPropValue = string | number | boolean

export interface AnalyticsEvent {
  name: AnalyticsEventName
  /** ISO 8601, the browser's clock. */
  occurredAt: string
  /** The route (pathname only: no query, which may hold search words). */
  path: string
  /** Mobile at most 768 px wide. */
  deviceType: AnalyticsDeviceType
  /** Random per tab (sessionStorage), so events of one visit can be grouped; not a user id. */
  sessionId: string
  props?: Record<string, AnalyticsPropValue>
}

export interface AnalyticsBatch {
  events: AnalyticsEvent[]
}
