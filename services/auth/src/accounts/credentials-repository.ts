import { MongoServerError, ObjectId, type Db } from 'mongodb'
import { insertWithEvents, updateWithEvents } from '@marketplace/service-kit'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  CREDENTIALS,
  type CredentialDoc,
  type NewCredential,
} from './credential-document'

export class EmailTakenError extends Error {}

/** Everything but the secret and the outbox, for answers and checks. */
const PUBLIC_FIELDS = { passwordHash: 0, outbox: 0, outboxPending: 0 } as const

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

export function createCredentialsRepository(db: Db) {
  const credentials = db.collection<CredentialDoc>(CREDENTIALS)

  /**
   * The account holding `email` (normalized): one query on the unique `email_unique` index.
   * On the local FerretDB, which serves no index but `_id`, it reads accounts until it meets
   * the address, which at the local stack's sizes costs little.
   */
  const lookUp = (email: string, projection?: Record<string, 0 | 1>) =>
    credentials.findOne({ email }, { projection })

  return {
    newUserId: () => new ObjectId().toHexString(),

    async emailExists(email: string): Promise<boolean> {
      return (await lookUp(email, { _id: 1, email: 1 })) !== null
    },

    /** With the password hash: only the login and password paths read it. */
    findByEmailWithSecret(email: string): Promise<CredentialDoc | null> {
      return lookUp(email)
    },

    findByIdWithSecret(userId: string): Promise<CredentialDoc | null> {
      return credentials.findOne({ _id: userId })
    },

    findByEmail(email: string): Promise<CredentialDoc | null> {
      return lookUp(email, PUBLIC_FIELDS)
    },

    findById(userId: string): Promise<CredentialDoc | null> {
      return credentials.findOne({ _id: userId }, { projection: PUBLIC_FIELDS })
    },

    /**
     * Stores the account and its user.registered event in one write (the outbox). The unique
     * `email_unique` index lets one of two sign-ups with one address in; the other gets
     * EmailTakenError (409).
     */
    async insert(doc: NewCredential, events: DomainEvent[]): Promise<void> {
      try {
        await credentials.insertOne(insertWithEvents(doc, events))
      } catch (error) {
        if (isDuplicateKey(error)) throw new EmailTakenError()
        throw error
      }
    },

    /** Marks the address verified once; false when it already was (no second event). */
    async markVerified(userId: string, events: DomainEvent[]): Promise<boolean> {
      const result = await credentials.updateOne(
        { _id: userId, verified: false },
        updateWithEvents<CredentialDoc>({ $set: { verified: true } }, events),
      )
      return result.modifiedCount === 1
    },

    /**
     * New password hash and the instant before which every access token dies, with the
     * user.tokens-revoked event (and user.verified when a reset proved the address).
     */
    async setPassword(
      userId: string,
      change: { passwordHash: string; at: Date; verify: boolean },
      events: DomainEvent[],
    ): Promise<void> {
      await credentials.updateOne(
        { _id: userId },
        updateWithEvents<CredentialDoc>(
          {
            $set: {
              passwordHash: change.passwordHash,
              passwordChangedAt: change.at,
              tokensValidAfter: change.at,
              ...(change.verify ? { verified: true } : {}),
            },
          },
          events,
        ),
      )
    },

    /**
     * Sets the instant before which the user's access tokens die (each caller passes the start
     * of the next second, so it only moves forward), with the
     * user.tokens-revoked event that tells every other service and closes the user's sockets.
     */
    async revokeAccessTokens(userId: string, at: Date, events: DomainEvent[]): Promise<void> {
      await credentials.updateOne(
        { _id: userId },
        updateWithEvents<CredentialDoc>({ $set: { tokensValidAfter: at } }, events),
      )
    },

    async updateProjection(
      userId: string,
      fields: Partial<Pick<CredentialDoc, 'firstName' | 'lastName' | 'phoneNumber' | 'isWorker'>>,
    ): Promise<void> {
      await credentials.updateOne({ _id: userId }, { $set: fields })
    },

    async markDeletionRequested(
      userId: string,
      at: Date,
      purgeAfter: Date,
      events: DomainEvent[],
    ): Promise<void> {
      await credentials.updateOne(
        { _id: userId },
        updateWithEvents<CredentialDoc>(
          {
            $set: { deletionRequestedAt: at, deletionPurgeAfter: purgeAfter, tokensValidAfter: at },
          },
          events,
        ),
      )
    },

    /**
     * "Keep my account": lifts the deletion together with user.deletion-cancelled, guarded so
     * that of two parallel attempts one stores the event. Answers whether this call did.
     */
    async cancelDeletion(userId: string, events: DomainEvent[]): Promise<boolean> {
      const result = await credentials.updateOne(
        { _id: userId, deletionRequestedAt: { $exists: true } },
        updateWithEvents<CredentialDoc>(
          { $unset: { deletionRequestedAt: '', deletionPurgeAfter: '' } },
          events,
        ),
      )
      return result.modifiedCount === 1
    },

    /**
     * Adds a role to an account whose address is verified; false when it is not (or is
     * gone), so an address someone else registered and never proved gains nothing.
     */
    async addRoleIfVerified(userId: string, role: string): Promise<boolean> {
      const result = await credentials.updateOne(
        { _id: userId, verified: true },
        { $addToSet: { roles: role } },
      )
      return result.matchedCount === 1
    },

    /** user.deleted: the account (its address is free for a new sign-up). */
    async remove(userId: string): Promise<void> {
      await credentials.deleteOne({ _id: userId })
    },
  }
}
export type CredentialsRepository = ReturnType<typeof createCredentialsRepository>
