import { MongoServerError, ObjectId, type Db } from 'mongodb'
import {
  OUTBOX_PENDING_INDEX,
  insertWithEvents,
  type IndexDefinition,
  type OutboxFields,
} from '@marketplace/service-kit'
import type { DomainEvent } from '@marketplace/contracts/events'

export const CREDENTIALS = 'credentials'

export interface CredentialDoc extends OutboxFields {
  _id: string
  email: string
  passwordHash: string
  firstName: string
  lastName: string
  roles: string[]
  verified: boolean
  createdAt: Date
}

export const credentialIndexes: IndexDefinition[] = [
  { collection: CREDENTIALS, keys: { email: 1 }, options: { name: 'email_unique', unique: true } },
  {
    collection: CREDENTIALS,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]

export class EmailTakenError extends Error {}

export function createCredentialsRepository(db: Db) {
  const credentials = db.collection<CredentialDoc>(CREDENTIALS)
  return {
    newUserId: () => new ObjectId().toHexString(),

    async emailExists(email: string): Promise<boolean> {
      return (await credentials.countDocuments({ email }, { limit: 1 })) > 0
    },

    /** Stores the account and its user.registered event in one write (the outbox). */
    async insert(
      doc: Omit<CredentialDoc, keyof OutboxFields>,
      events: DomainEvent[],
    ): Promise<void> {
      try {
        await credentials.insertOne(insertWithEvents(doc, events))
      } catch (error) {
        // The unique index settles the race of two sign-ups with one address.
        if (error instanceof MongoServerError && error.code === 11000) throw new EmailTakenError()
        throw error
      }
    },
  }
}
export type CredentialsRepository = ReturnType<typeof createCredentialsRepository>
