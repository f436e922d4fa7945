/**
 * Where the browser's PUT lands: under `staging/`, outside the two prefixes the bucket serves
 * publicly (ensure-bucket.ts), so nothing uploaded is ever readable as it was sent. Completing
 * the upload (or the first post or profile naming it) checks those bytes, writes the cleaned
 * original and its sizes under the public key, and deletes the staging object. A pre-signed
 * PUT stays usable until it expires, but what it writes afterwards lands here again, where
 * nobody reads it (the sweep removes it): the checked bytes are the only ones ever served.
 */
export const STAGING_PREFIX = 'staging/'

/** The staging key of the upload that becomes `key` (`staging/jobImages/{userId}/{uuid}.jpg`). */
export function stagingKeyOf(key: string): string {
  return `${STAGING_PREFIX}${key}`
}
