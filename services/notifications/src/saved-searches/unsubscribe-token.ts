import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * The signed token of a saved search's one-click unsubscribe link: the search's id and an
 * HMAC-SHA256 of it under a secret of this service's configuration, so the link works without
 * a session and cannot be made for another search. It never expires: an e-mail read a month
 * later must still stop the mails (RFC 8058 asks for a link that keeps working).
 */
const PURPOSE = 'saved-search-unsubscribe:'

const signatureOf = (secret: string, searchId: string) =>
  createHmac('sha256', secret)
    .update(PURPOSE + searchId)
    .digest('base64url')

export function unsubscribeToken(secret: string, searchId: string): string {
  return `${searchId}.${signatureOf(secret, searchId)}`
}

/** The search id the token was made for, or null when it is malformed or its signature wrong. */
export function searchIdOfToken(secret: string, token: string): string | null {
  const dot = token.indexOf('.')
  if (dot <= 0) return null
  const searchId = token.slice(0, dot)
  const given = Buffer.from(token.slice(dot + 1))
  const expected = Buffer.from(signatureOf(secret, searchId))
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  return searchId
}
