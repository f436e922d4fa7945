import { createHash, createHmac, randomBytes } from 'node:crypto'

/**
 * A refresh token is `<familyId>.<secret>`: the family (one login, RFC 9700 §4.14.2) is
 * found by id, and only a SHA-256 of the current secret is stored, so a database leak
 * gives no usable token. 256 random bits need no slow hash.
 */
export interface ParsedRefreshToken {
  familyId: string
  secret: string
}

const PART = /^[A-Za-z0-9_-]{16,64}$/

export function newFamilyId(): string {
  return randomBytes(16).toString('base64url')
}

export function newRefreshSecret(): string {
  return randomBytes(32).toString('base64url')
}

export function formatRefreshToken(token: ParsedRefreshToken): string {
  return `${token.familyId}.${token.secret}`
}

export function parseRefreshToken(value: string | undefined): ParsedRefreshToken | null {
  if (!value) return null
  const [familyId, secret, extra] = value.split('.')
  if (extra !== undefined || !familyId || !secret) return null
  if (!PART.test(familyId) || !PART.test(secret)) return null
  return { familyId, secret }
}

export function hashRefreshSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url')
}

/**
 * The XSRF token of a session: an HMAC of its family id, so it cannot be forged without the
 * server's secret and is worthless for any other session (the "signed double-submit" of
 * OWASP's CSRF cheat sheet). It stays the same across rotations of one family.
 */
export function xsrfTokenFor(sessionSecret: string, familyId: string): string {
  return createHmac('sha256', sessionSecret).update(`xsrf:${familyId}`).digest('base64url')
}

/**
 * The secret that replaces `token`'s on renewal: an HMAC of the presented token, so every
 * request presenting the same token derives the same successor without the server keeping
 * a usable secret (only its hash is stored). That is what lets a renewal that lost the race
 * answer the winner's successor; nobody can derive it without the token and the server's key.
 */
export function successorSecret(sessionSecret: string, token: ParsedRefreshToken): string {
  return createHmac('sha256', sessionSecret)
    .update(`refresh-successor:${formatRefreshToken(token)}`)
    .digest('base64url')
}
