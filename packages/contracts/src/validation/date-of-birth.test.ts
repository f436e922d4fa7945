import { ageFromDateOfBirth, checkDateOfBirth, isValidDateOfBirth } from './date-of-birth'

const on = (iso: string) => new Date(`${iso}T12:00:00Z`)

describe('checkDateOfBirth', () => {
  const today = on('2024-06-15')

  it('accepts someone on their 18th birthday', () => {
    expect(checkDateOfBirth('2006-06-15', today)).toBeNull()
    expect(isValidDateOfBirth('2006-06-15', today)).toBe(true)
  })

  it('refuses someone the day before their 18th birthday', () => {
    expect(checkDateOfBirth('2006-06-16', today)).toBe('underage')
    expect(isValidDateOfBirth('2006-06-16', today)).toBe(false)
  })

  it('accepts someone well over 18', () => {
    expect(checkDateOfBirth('1950-01-01', today)).toBeNull()
  })

  it('refuses a date of birth in the future', () => {
    expect(checkDateOfBirth('2024-06-16', today)).toBe('future')
  })

  it('calls someone born today underage, not future', () => {
    expect(checkDateOfBirth('2024-06-15', today)).toBe('underage')
  })

  it('refuses an empty or malformed date as invalid', () => {
    expect(checkDateOfBirth('', today)).toBe('invalid')
    expect(checkDateOfBirth('15/06/2006', today)).toBe('invalid')
    expect(checkDateOfBirth('2006-02-30', today)).toBe('invalid')
  })

  it('reads today through its UTC parts, whatever the hour', () => {
    expect(checkDateOfBirth('2006-06-15', new Date('2024-06-15T00:00:00Z'))).toBeNull()
    expect(checkDateOfBirth('2006-06-15', new Date('2024-06-14T23:59:59Z'))).toBe('underage')
  })

  it('uses the current date by default', () => {
    expect(checkDateOfBirth('1970-01-01')).toBeNull()
    expect(checkDateOfBirth('2999-01-01')).toBe('future')
  })

  describe('someone born on 29 February', () => {
    it('is not yet 18 on 28 February of a non-leap year', () => {
      expect(checkDateOfBirth('2008-02-29', on('2026-02-28'))).toBe('underage')
    })

    it('turns 18 on 1 March of a non-leap year', () => {
      expect(checkDateOfBirth('2008-02-29', on('2026-03-01'))).toBeNull()
    })

    it('turns 18 on 1 March whatever the birth year, since year + 18 is never a leap year', () => {
      expect(checkDateOfBirth('1996-02-29', on('2014-02-28'))).toBe('underage')
      expect(checkDateOfBirth('1996-02-29', on('2014-03-01'))).toBeNull()
    })
  })
})

describe('ageFromDateOfBirth', () => {
  const today = on('2024-06-15')

  it('counts whole calendar years', () => {
    expect(ageFromDateOfBirth('2000-06-15', today)).toBe(24)
    expect(ageFromDateOfBirth('2000-06-16', today)).toBe(23)
    expect(ageFromDateOfBirth('2000-01-01', today)).toBe(24)
    expect(ageFromDateOfBirth('2000-12-31', today)).toBe(23)
  })

  it('is 0 on the day of birth', () => {
    expect(ageFromDateOfBirth('2024-06-15', today)).toBe(0)
  })

  it('counts a leap-day birthday on 1 March in non-leap years', () => {
    expect(ageFromDateOfBirth('2000-02-29', on('2023-02-28'))).toBe(22)
    expect(ageFromDateOfBirth('2000-02-29', on('2023-03-01'))).toBe(23)
    expect(ageFromDateOfBirth('2000-02-29', on('2024-02-29'))).toBe(24)
  })

  it('accepts a Date, read through its UTC parts', () => {
    expect(ageFromDateOfBirth(new Date('2000-06-15T23:00:00Z'), today)).toBe(24)
  })

  it('gives null for a future or unreadable date', () => {
    expect(ageFromDateOfBirth('2024-06-16', today)).toBeNull()
    expect(ageFromDateOfBirth('not a date', today)).toBeNull()
    expect(ageFromDateOfBirth(new Date('nope'), today)).toBeNull()
  })
})
