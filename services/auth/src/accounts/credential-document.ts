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

export const credentialIndexes: IndexDefinition[] = [
  // One account per address (two sign-ups at once: the second gets 409), and every lookup by
  // e-mail: login, sign-up's check, password reset.
  { collection: CREDENTIALS, keys: { email: 1 }, options: { name: 'email_unique', unique: true } },
  {
    collection: CREDENTIALS,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]
