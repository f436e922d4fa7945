import {
  OUTBOX_PENDING_INDEX,
  type IndexDefinition,
  type OutboxFields,
} from '@marketplace/service-kit'

export const CREDENTIALS = 'credentials'

/**
 * One account. Besides the secrets, it keeps a projection of what login answers with
 * (names, phone, isWorker), fed by the people service's events, so login needs no call.
 */
export interface CredentialDoc extends OutboxFields {
  _id: string
  email: string
  passwordHash: string
  firstName: string
  lastName: string
  phoneNumber: string
  isWorker: boolean
  roles: string[]
  verified: boolean
  createdAt: Date
  /** Access tokens issued before this instant are refused (password change, reset). */
  tokensValidAfter?: Date
  passwordChangedAt?: Date
  /** Set while the account is in its deletion grace period: no logins, no sessions. */
  deletionRequestedAt?: Date
  /** When the grace period ends: "Keep my account" works until then. */
  deletionPurgeAfter?: Date
}

export type NewCredential = Omit<CredentialDoc, keyof OutboxFields>

/**
 * Which account holds an address, addressed by the address itself (issue 19 §2): login and
 * every lookup by e-mail read one document by `_id` and then the account by `_id`, whatever
 * the number of accounts. The local server (FerretDB v1) uses no index but `_id`, so
 * `findOne({ email })` there reads accounts until it meets the address; on MongoDB both
 * reads are `_id` index hits, as cheap as the `email_unique` index it replaces for reads.
 *
 * Sign-up inserts the address before the account: two sign-ups with one address race on
 * this `_id`, and the loser gets 409 (the account's `email_unique` index stays as the second
 * guard). A sign-up that crashed between the two writes leaves a claim with no account: a
 * lookup skips it, and a sign-up takes it over once it is older than a sign-up can take.
 */
export const EMAIL_ADDRESSES = 'email_addresses'

export interface EmailAddressDoc {
  /** The normalized address (`normalizeEmail`: trimmed, lower case). */
  _id: string
  userId: string
  claimedAt: Date
}

/**
 * Marks that every account stored before the addresses existed has its address document:
 * until then, a lookup that misses asks the accounts themselves. Upper case, so no
 * normalized address can ever be this `_id`.
 */
export const ADDRESS_BOOK_FILLED = 'FILLED'

export interface AddressBookFilledDoc {
  _id: typeof ADDRESS_BOOK_FILLED
  filledAt: Date
}

export const credentialIndexes: IndexDefinition[] = [
  // The second guard of one account per address, and the lookup of accounts stored before
  // the address documents (only until the fill at start has run; EMAIL_ADDRESSES above).
  { collection: CREDENTIALS, keys: { email: 1 }, options: { name: 'email_unique', unique: true } },
  {
    collection: CREDENTIALS,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]
