import type { IndexDefinition } from '@marketplace/service-kit'
import type { CodePurpose } from './one-time-codes'

export const ONE_TIME_CODES = 'one_time_codes'
/**
 * One document per attempt. An attempt counter kept with `$inc` would lose increments under
 * parallel guesses on FerretDB v1 (updates are read-modify-write without locking), letting
 * a burst try more than five codes; inserts are never lost, so attempts are counted.
 */
export const CODE_ATTEMPTS = 'code_attempts'

export interface CodeAttemptDoc {
  _id: string
  /** `<code _id>:<issueId>`: a new code starts with no attempts. */
  codeKey: string
  userId: string
  expiresAt: Date
}

/** At most one live code per user and purpose: `_id` is `<purpose>:<userId>`. */
export interface CodeDoc {
  _id: string
  userId: string
  purpose: CodePurpose
  codeHash: string
  /** Distinguishes this code from the one it replaced (attempts belong to one issue). */
  issueId: string
  createdAt: Date
  expiresAt: Date
}

export const codeIndexes: IndexDefinition[] = [
  { collection: ONE_TIME_CODES, keys: { userId: 1 }, options: { name: 'user' } },
  { collection: ONE_TIME_CODES, keys: { expiresAt: 1 }, options: { name: 'expires' } },
  { collection: CODE_ATTEMPTS, keys: { codeKey: 1 }, options: { name: 'code' } },
  { collection: CODE_ATTEMPTS, keys: { userId: 1 }, options: { name: 'user' } },
  { collection: CODE_ATTEMPTS, keys: { expiresAt: 1 }, options: { name: 'expires' } },
]
