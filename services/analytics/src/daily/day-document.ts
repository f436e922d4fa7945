import type { IndexDefinition } from '@marketplace/service-kit'

export const ANALYTICS_DAYS_COLLECTION = 'analytics_days'

/** Distinct routes, error messages or help pages one day keeps; the rest count under OTHER_KEY. */
export const MAX_KEYS_PER_DAY = 200
export const OTHER_KEY = '(other)'

/** The daily figures are kept 13 months. */
export const RETENTION_MONTHS = 13

/** Profile completion buckets: filled fields out of PROFILE_COMPLETION_FIELDS (0..6). */
export const COMPLETION_BUCKETS = 7

/**
 * One UTC day of product analytics, addressed by its date (`_id: '2026-11-25'`): every read is
 * by `_id` (the local server uses no other index) and every batch of events is one `$inc` per
 * day. Keyed maps hold escaped keys (field-keys.ts), at most MAX_KEYS_PER_DAY each.
 */
export interface DayDocument {
  _id: string
  /** The day's end plus RETENTION_MONTHS: the TTL index, or the sweep, removes it then. */
  expiresAt: Date
  pageViews?: number
  /** Page views per normalized route. */
  routes?: Record<string, number>
  /** Page views per device type (mobile, desktop). */
  devices?: Record<string, number>
  clientErrors?: number
  /** Client errors per normalized message. */
  errors?: Record<string, number>
  helpViews?: number
  /** Help views per page (`/help`, `/settings-help-support`). */
  helpPages?: Record<string, number>
  supportCreated?: number
  supportFailed?: number
  profilesSaved?: number
  /** Worker profiles saved, by filled fields: `filled0` .. `filled6`. */
  completion?: Record<string, number>
  /**
   * The last offset applied to this day, per partition of the topic (`p0`, `p1`, ...): a
   * batch delivered again after a crash skips what this day already counted.
   */
  offsets?: Record<string, number>
}

/**
 * MongoDB expires the days by the TTL index; FerretDB v1 refuses the option, keeps a plain
 * index and the hourly sweep (daily-repository) deletes them.
 */
export const analyticsDayIndexes: IndexDefinition[] = [
  {
    collection: ANALYTICS_DAYS_COLLECTION,
    keys: { expiresAt: 1 },
    options: { name: 'analytics_days_expiry', expireAfterSeconds: 0 },
  },
]

/** The UTC date of an instant, as a day's `_id`. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10)
}

/** When a day's figures go: RETENTION_MONTHS after the day ended. */
export function expiryOf(day: string): Date {
  const end = new Date(`${day}T00:00:00.000Z`)
  end.setUTCDate(end.getUTCDate() + 1)
  end.setUTCMonth(end.getUTCMonth() + RETENTION_MONTHS)
  return end
}
