/**
 * Calendar dates without a time zone. Dates of birth and expiration dates are
 * 'YYYY-MM-DD' texts; comparing them as instants would move them by a day
 * depending on where the code runs, so they are compared as (year, month, day) triples and
 * a `Date` is always read through its UTC parts.
 */
export interface CalendarDate {
  year: number
  /** 1..12 */
  month: number
  /** 1..31 */
  day: number
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/** Parses a strict 'YYYY-MM-DD' text; null for any other shape or for a day that does not exist. */
export function parseCalendarDate(text: string): CalendarDate | null {
  const match = ISO_DATE.exec(text)
  if (!match) return null
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null
  return { year, month, day }
}

/** The calendar date of a `Date`, read through its UTC parts. */
export function calendarDateOf(date: Date): CalendarDate {
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }
}

/**
 * Today's date in the local time zone, as a `Date` whose UTC parts carry it. The browser
 * passes this as `today` so that, at 9 pm in New York, "today" is still the local day
 * rather than tomorrow's UTC date; services keep the default `new Date()` (UTC).
 */
export function localToday(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()))
}

/** Negative when a is before b, 0 when equal, positive when after. */
export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day
}

export function formatCalendarDate(date: CalendarDate): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0')
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`
}

/** 'YYYY-MM-DD' of `today`'s UTC parts; e.g. the `min` of the expiration date input. */
export function isoDateOf(today: Date = new Date()): string {
  return formatCalendarDate(calendarDateOf(today))
}
