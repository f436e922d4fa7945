import { EMAIL_MAX_LENGTH } from '../marketplace/limits'

/** Emails are trimmed and lower-cased before testing and storing. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

// The local part must not start or end with a dot; a domain; an ending (TLD)
// of 2 or more letters. Domain labels are letters, digits and inner hyphens.
const LOCAL = '[a-z0-9_%+-](?:[a-z0-9._%+-]*[a-z0-9_%+-])?'
const LABEL = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?'
const EMAIL_PATTERN = new RegExp(`^${LOCAL}@(?:${LABEL}\\.)+[a-z]{2,}$`)

/** Tests the normalized form, so " John@Example.COM " is valid. */
export function isValidEmail(email: string): boolean {
  const normalized = normalizeEmail(email)
  return normalized.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(normalized)
}
