import { PHONE_DIGITS } from '../marketplace/limits'

/**
 * US-style phone numbers: an optional country prefix (+1 or 1), then 10 digits,
 * in the usual separators: "(123) 456-7890", "123-456-7890", "123.456.7890",
 * "+1 123 456 7890", "11234567890". Area codes are not checked against the NANP rules:
 * the product's own example "(123) 456-7890" would fail them.
 */
const PHONE_PATTERN = /^(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}$/

export function isValidPhoneNumber(input: string): boolean {
  return PHONE_PATTERN.test(input.trim())
}

/** The 10 national digits of what was typed, without a country prefix, at most 10. */
function nationalDigits(input: string): string {
  const trimmed = input.trim()
  let digits = trimmed.replace(/\D/g, '')
  // "+1..." is always the country code. A bare leading 1 is one only once 11 digits are
  // present (while typing, "1..." may as well start the area code) and not after "(",
  // which marks an already formatted area code: typing past "(112) 345-6789" must not shift.
  const barePrefix =
    digits.length > PHONE_DIGITS && digits.startsWith('1') && !trimmed.startsWith('(')
  if (trimmed.startsWith('+1') || barePrefix) {
    digits = digits.slice(1)
  }
  return digits.slice(0, PHONE_DIGITS)
}

/**
 * Formats progressively as the user types, towards "(123) 456-7890":
 * "" → "", "123" → "123", "1234" → "(123) 4", "1234567" → "(123) 456-7". Up to three digits
 * stay bare so that backspacing through the area code never fights the cursor. Extra digits
 * beyond 10 are dropped; a +1 or 1 country prefix is dropped too.
 */
export function formatPhoneNumber(input: string): string {
  const digits = nationalDigits(input)
  if (digits.length < 4) return digits
  if (digits.length < 7) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`
}

/** The canonical "(123) 456-7890" form of a valid number, or null when it is not valid. */
export function normalizePhoneNumber(input: string): string | null {
  return isValidPhoneNumber(input) ? formatPhoneNumber(input) : null
}
