import { MINIMUM_AGE_YEARS } from '../marketplace/limits'
import {
  calendarDateOf,
  compareCalendarDates,
  isLeapYear,
  parseCalendarDate,
  type CalendarDate,
} from './calendar-date'

/**
 * Someone born on 29 February has, in a non-leap year, their birthday on 1 March: they are
 * not a year older until the day after 28 February. So a person born 2008-02-29 turns 18
 * on 2026-03-01, not on 2026-02-28. (This is the reading used by most legal systems that
 * decide it, e.g. the UK and New Zealand; the product's copy only says "at least 18 years old".)
 * Since a leap year plus 18 is never a leap year, every leap-day baby turns 18 on 1 March.
 */
function birthdayIn(birth: CalendarDate, year: number): CalendarDate {
  if (birth.month === 2 && birth.day === 29 && !isLeapYear(year)) {
    return { year, month: 3, day: 1 }
  }
  return { year, month: birth.month, day: birth.day }
}

/** Whole calendar years from `birth` to `today`; assumes birth is not after today. */
function wholeYears(birth: CalendarDate, today: CalendarDate): number {
  const years = today.year - birth.year
  return compareCalendarDates(today, birthdayIn(birth, today.year)) < 0 ? years - 1 : years
}

function toCalendarDate(value: string | Date): CalendarDate | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : calendarDateOf(value)
  return parseCalendarDate(value)
}

/**
 * Age in whole calendar years on `today` (read through UTC parts), as the people feed shows
 * it ("N years old"). Takes a 'YYYY-MM-DD' text or a Date (read through its UTC
 * parts). Null when the date is unreadable or in the future.
 */
export function ageFromDateOfBirth(
  dateOfBirth: string | Date,
  today: Date = new Date(),
): number | null {
  const birth = toCalendarDate(dateOfBirth)
  const now = calendarDateOf(today)
  if (!birth || compareCalendarDates(birth, now) > 0) return null
  return wholeYears(birth, now)
}

export type DateOfBirthProblem = 'invalid' | 'future' | 'underage'

/**
 * The date of birth is not in the future and the person is at least 18. Returns
 * which rule fails, or null. 'invalid' covers an empty or non-'YYYY-MM-DD' text.
 */
export function checkDateOfBirth(
  dateOfBirth: string,
  today: Date = new Date(),
): DateOfBirthProblem | null {
  const birth = parseCalendarDate(dateOfBirth)
  if (!birth) return 'invalid'
  const now = calendarDateOf(today)
  if (compareCalendarDates(birth, now) > 0) return 'future'
  return wholeYears(birth, now) < MINIMUM_AGE_YEARS ? 'underage' : null
}

export function isValidDateOfBirth(dateOfBirth: string, today: Date = new Date()): boolean {
  return checkDateOfBirth(dateOfBirth, today) === null
}
