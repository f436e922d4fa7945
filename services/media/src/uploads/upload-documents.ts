/**
 * The media service's bookkeeping of upload slots. Every document is read and written by its
 * `_id` only: FerretDB (the local MongoDB) uses no other index, so nothing here is ever
 * found by scanning a collection that grows with the uploads.
 */

/** One upload slot handed out, until the sweep has dealt with it. */
export const UPLOADS_COLLECTION = 'uploads'
/** Per-minute lists of the slots handed out in that minute: how the sweep finds them. */
export const UPLOAD_MINUTES_COLLECTION = 'upload_minutes'
/** Slots asked for per user and UTC day. */
export const UPLOAD_QUOTAS_COLLECTION = 'upload_quotas'
/** The sweep's progress: the last minute it finished. */
export const UPLOAD_SWEEP_COLLECTION = 'upload_sweep'

export interface UploadDocument {
  /** The object key of the slot. */
  _id: string
  userId: string
  createdAt: Date
  /** Set by the first post or profile event that names the key; the sweep then keeps it. */
  attachedAt: Date | null
}

export interface UploadMinuteDocument {
  /** The UTC minute, `YYYY-MM-DDTHH:MM` (minuteOf). */
  _id: string
  /** Object keys of the slots handed out in the minute. */
  keys: string[]
  /** Quota counters used in the minute: their day is over by the time the sweep gets here. */
  quotaIds: string[]
}

export interface UploadQuotaDocument {
  /** `${userId}:${day}` (quotaId). */
  _id: string
  count: number
}

export interface UploadSweepDocument {
  _id: typeof SWEEP_CURSOR_ID
  /** The last minute swept (minuteOf). */
  through: string
}

export const SWEEP_CURSOR_ID = 'cursor'

const MINUTE_MS = 60_000

/** The UTC minute of an instant, as an id that sorts and reads as time. */
export const minuteOf = (at: Date) => at.toISOString().slice(0, 16)

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10)

/** The minute after `minute` (both minuteOf ids). */
export const nextMinute = (minute: string) =>
  minuteOf(new Date(Date.parse(`${minute}:00Z`) + MINUTE_MS))

/** The first instant after `minute` (a minuteOf id). */
export const endOfMinute = (minute: string) => new Date(Date.parse(`${minute}:00Z`) + MINUTE_MS)

export const quotaId = (userId: string, at: Date) => `${userId}:${dayOf(at)}`
