import {
  calendarDateOf,
  compareCalendarDates,
  daysInMonth,
  formatCalendarDate,
  isLeapYear,
  isoDateOf,
  localToday,
  parseCalendarDate,
} from './calendar-date'

describe('parseCalendarDate', () => {
  it('reads a YYYY-MM-DD text', () => {
    expect(parseCalendarDate('2000-01-31')).toEqual({ year: 2000, month: 1, day: 31 })
  })

  it('accepts 29 February of a leap year only', () => {
    expect(parseCalendarDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 })
    expect(parseCalendarDate('2023-02-29')).toBeNull()
    expect(parseCalendarDate('1900-02-29')).toBeNull()
    expect(parseCalendarDate('2000-02-29')).not.toBeNull()
  })

  it.each(['2000-13-01', '2000-00-10', '2000-04-31', '2000-01-00', '2000-1-1', '20000-01-01'])(
    'refuses the impossible or misshapen %p',
    (text) => {
      expect(parseCalendarDate(text)).toBeNull()
    },
  )

  it('refuses times, time zones and surrounding text', () => {
    expect(parseCalendarDate('2000-01-01T00:00:00Z')).toBeNull()
    expect(parseCalendarDate(' 2000-01-01')).toBeNull()
    expect(parseCalendarDate('')).toBeNull()
  })
})

describe('calendar helpers', () => {
  it('knows leap years and month lengths', () => {
    expect(isLeapYear(2024)).toBe(true)
    expect(isLeapYear(2100)).toBe(false)
    expect(daysInMonth(2023, 2)).toBe(28)
    expect(daysInMonth(2024, 2)).toBe(29)
    expect(daysInMonth(2024, 4)).toBe(30)
    expect(daysInMonth(2024, 12)).toBe(31)
  })

  it('reads a Date through its UTC parts', () => {
    expect(calendarDateOf(new Date('2024-03-01T23:30:00Z'))).toEqual({
      year: 2024,
      month: 3,
      day: 1,
    })
  })

  it('builds a Date whose UTC parts are the local calendar day', () => {
    const now = new Date(2024, 6, 4, 23, 59)
    expect(calendarDateOf(localToday(now))).toEqual({ year: 2024, month: 7, day: 4 })
  })

  it('compares dates by year, then month, then day', () => {
    const a = { year: 2024, month: 1, day: 31 }
    const b = { year: 2024, month: 2, day: 1 }
    expect(compareCalendarDates(a, b)).toBeLessThan(0)
    expect(compareCalendarDates(b, a)).toBeGreaterThan(0)
    expect(compareCalendarDates(a, { ...a })).toBe(0)
  })

  it('formats with zero padding', () => {
    expect(formatCalendarDate({ year: 987, month: 3, day: 4 })).toBe('0987-03-04')
    expect(isoDateOf(new Date('2024-11-05T12:00:00Z'))).toBe('2024-11-05')
  })
})
