import { EMAIL_MAX_LENGTH } from '../marketplace/limits'
import { isValidEmail, normalizeEmail } from './email'

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  John.Doe@Example.COM \n')).toBe('john.doe@example.com')
  })
})

describe('isValidEmail', () => {
  it('accepts an ordinary address', () => {
    expect(isValidEmail('john.doe@example.com')).toBe(true)
  })

  it('tests the trimmed, lower-cased form', () => {
    expect(isValidEmail('  John.Doe@Example.COM  ')).toBe(true)
  })

  it('accepts plus tags, underscores, digits and subdomains', () => {
    expect(isValidEmail('a_b+tag1@mail.example.co.uk')).toBe(true)
  })

  it('accepts a one-character local part', () => {
    expect(isValidEmail('a@example.com')).toBe(true)
  })

  it('refuses a local part starting with a dot', () => {
    expect(isValidEmail('.john@example.com')).toBe(false)
  })

  it('refuses a local part ending with a dot', () => {
    expect(isValidEmail('john.@example.com')).toBe(false)
  })

  it('refuses an address without a domain', () => {
    expect(isValidEmail('john@')).toBe(false)
    expect(isValidEmail('john')).toBe(false)
  })

  it('refuses a domain without an ending', () => {
    expect(isValidEmail('john@example')).toBe(false)
  })

  it('accepts a two-letter ending and refuses a one-letter ending', () => {
    expect(isValidEmail('john@example.io')).toBe(true)
    expect(isValidEmail('john@example.c')).toBe(false)
  })

  it('refuses an ending with digits', () => {
    expect(isValidEmail('john@example.c0m')).toBe(false)
  })

  it('refuses an empty local part, spaces and two @', () => {
    expect(isValidEmail('@example.com')).toBe(false)
    expect(isValidEmail('jo hn@example.com')).toBe(false)
    expect(isValidEmail('john@@example.com')).toBe(false)
    expect(isValidEmail('a@b@example.com')).toBe(false)
  })

  it('refuses domain labels that start or end with a hyphen, or are empty', () => {
    expect(isValidEmail('john@-example.com')).toBe(false)
    expect(isValidEmail('john@example-.com')).toBe(false)
    expect(isValidEmail('john@example..com')).toBe(false)
  })

  it('refuses an address longer than 254 characters', () => {
    const domain = '@example.com'
    const atLimit = 'a'.repeat(EMAIL_MAX_LENGTH - domain.length) + domain
    expect(isValidEmail(atLimit)).toBe(true)
    expect(isValidEmail('a' + atLimit)).toBe(false)
  })

  it('refuses the empty string', () => {
    expect(isValidEmail('')).toBe(false)
  })
})
