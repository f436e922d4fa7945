import { formatPhoneNumber, isValidPhoneNumber, normalizePhoneNumber } from './phone'

describe('isValidPhoneNumber', () => {
  it.each([
    '(123) 456-7890',
    '1234567890',
    '123-456-7890',
    '123.456.7890',
    '123 456 7890',
    '(123)456-7890',
    '+1 (123) 456-7890',
    '+11234567890',
    '1 123 456 7890',
    '1-123-456-7890',
    '11234567890',
    '  (123) 456-7890  ',
  ])('accepts %p', (input) => {
    expect(isValidPhoneNumber(input)).toBe(true)
  })

  it.each([
    ['9 digits', '123456789'],
    ['11 digits not starting with 1', '21234567890'],
    ['12 digits', '112345678901'],
    ['another country prefix', '+44 123 456 7890'],
    ['letters', '123-456-789O'],
    ['an unbalanced parenthesis', '(123 456-7890'],
    ['the empty string', ''],
  ])('refuses %s', (_label, input) => {
    expect(isValidPhoneNumber(input)).toBe(false)
  })
})

describe('formatPhoneNumber (progressive)', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['12', '12'],
    ['123', '123'],
    ['1234', '(123) 4'],
    ['12345', '(123) 45'],
    ['123456', '(123) 456'],
    ['1234567', '(123) 456-7'],
    ['123456789', '(123) 456-789'],
    ['1234567890', '(123) 456-7890'],
  ])('formats %p as %p', (input, expected) => {
    expect(formatPhoneNumber(input)).toBe(expected)
  })

  it('re-formats its own output plus a typed digit', () => {
    expect(formatPhoneNumber('(123) 456-789' + '0')).toBe('(123) 456-7890')
    expect(formatPhoneNumber('(123) 45' + '6')).toBe('(123) 456')
  })

  it('handles a backspace through the separators', () => {
    expect(formatPhoneNumber('(123) ')).toBe('123')
    expect(formatPhoneNumber('(123) 456-')).toBe('(123) 456')
  })

  it('drops digits beyond the tenth', () => {
    expect(formatPhoneNumber('(123) 456-78901')).toBe('(123) 456-7890')
  })

  it('keeps an area code starting with 1 when typing past the tenth digit', () => {
    expect(formatPhoneNumber('(112) 345-67890')).toBe('(112) 345-6789')
  })

  it('drops a +1 country prefix, even while typing', () => {
    expect(formatPhoneNumber('+1')).toBe('')
    expect(formatPhoneNumber('+1 123')).toBe('123')
    expect(formatPhoneNumber('+1 (123) 456-7890')).toBe('(123) 456-7890')
  })

  it('drops a bare leading 1 once 11 digits are present', () => {
    expect(formatPhoneNumber('11234567890')).toBe('(123) 456-7890')
    expect(formatPhoneNumber('1-123-456-7890')).toBe('(123) 456-7890')
  })

  it('keeps a bare leading 1 while fewer than 11 digits are typed', () => {
    expect(formatPhoneNumber('1123')).toBe('(112) 3')
  })

  it('ignores letters and symbols', () => {
    expect(formatPhoneNumber('12a3-4')).toBe('(123) 4')
  })
})

describe('normalizePhoneNumber', () => {
  it('gives the canonical form of a valid number', () => {
    expect(normalizePhoneNumber('123.456.7890')).toBe('(123) 456-7890')
    expect(normalizePhoneNumber('+1 123 456 7890')).toBe('(123) 456-7890')
    expect(normalizePhoneNumber('11234567890')).toBe('(123) 456-7890')
    expect(normalizePhoneNumber('(112) 345-6789')).toBe('(112) 345-6789')
  })

  it('gives null for an invalid number', () => {
    expect(normalizePhoneNumber('12345')).toBeNull()
    expect(normalizePhoneNumber('')).toBeNull()
  })
})
