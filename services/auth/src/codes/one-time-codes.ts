import { createHmac, randomInt } from 'node:crypto'

/**
 * What a code proves: an e-mail address for sign-up, the right to set a new password, or
 * the second step of a sign-in (docs/identity.md, "Two-step sign-in").
 */
export type CodePurpose = 'verify-email' | 'reset-password' | 'sign-in'

export const CODE_TTL_MS = 15 * 60 * 1000
/** A sign-in code lives 10 minutes; it only finishes a login already started. */
export const SIGN_IN_CODE_TTL_MS = 10 * 60 * 1000
export const CODE_MAX_ATTEMPTS = 5
export const CODE_PATTERN = /^\d{6}$/

/** Six uniformly random digits from the CSPRNG (leading zeros kept). */
export function newCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0')
}

/**
 * Codes are stored as an HMAC keyed with the server's secret: a plain hash of a 6-digit code
 * falls to a million guesses offline, the keyed one does not without the secret. The user
 * and purpose are mixed in so a stored value is worthless anywhere else.
 */
export function hashCode(
  secret: string,
  input: { userId: string; purpose: CodePurpose; code: string },
) {
  return createHmac('sha256', secret)
    .update(`${input.purpose}:${input.userId}:${input.code}`)
    .digest('base64url')
}
