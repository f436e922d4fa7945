import { MongoServerError, ObjectId, type Db } from 'mongodb'
import { insertWithEvents, updateWithEvents } from '@marketplace/service-kit'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  ADDRESS_BOOK_FILLED,
  CREDENTIALS,
  EMAIL_ADDRESSES,
  type AddressBookFilledDoc,
  type CredentialDoc,
  type EmailAddressDoc,
  type NewCredential,
} from './credential-document'

export class EmailTakenError extends Error {}

/** Everything but the secret and the outbox, for answers and checks. */
const PUBLIC_FIELDS = { passwordHash: 0, outbox: 0, outboxPending: 0 } as const

/**
 * How old a claim on an address with no account must be before a sign-up takes it over:
 * far longer than a sign-up spends between its two writes (one password hash), so only a
 * sign-up that crashed in between leaves one this old.
 */
export const STALE_CLAIM_MS = 60_000

/** The accounts the fill at start reads and writes at a time. */
const FILL_BATCH = 50

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

export function createCredentialsRepository(
  db: Db,
  options: { staleClaimMs?: number; now?: () => Date } = {},
) {
  const credentials = db.collection<CredentialDoc>(CREDENTIALS)
  // One collection, two kinds of document: each address, and the mark of the fill.
  const addresses = db.collection<EmailAddressDoc>(EMAIL_ADDRESSES)
  const addressBook = db.collection<AddressBookFilledDoc>(EMAIL_ADDRESSES)
  const staleClaimMs = options.staleClaimMs ?? STALE_CLAIM_MS
  const now = options.now ?? (() => new Date())
  let filled = false

  /** Whether every account stored before the address documents has one (read until it is). */
  async function isFilled(): Promise<boolean> {
    if (!filled) filled = (await addressBook.findOne({ _id: ADDRESS_BOOK_FILLED })) !== null
    return filled
  }

  /** Points the address at the account that holds it (an account stored before the addresses). */
  async function remember(email: string, userId: string): Promise<void> {
    try {
      await addresses.updateOne(
        { _id: email },
        { $set: { userId }, $setOnInsert: { claimedAt: now() } },
        { upsert: true },
      )
    } catch (error) {
      // A parallel lookup wrote it first: it names the same account.
      if (!isDuplicateKey(error)) throw error
    }
  }

  /**
   * The account holding `email`: its address document, then the account, both by `_id`.
   * Until the fill at start has run, a miss asks the accounts themselves (the old query,
   * served by `email_unique` on MongoDB) and remembers what it found.
   */
  async function lookUp(
    email: string,
    projection?: Record<string, 0 | 1>,
  ): Promise<CredentialDoc | null> {
    const address = await addresses.findOne({ _id: email })
    if (address) {
      const account = await credentials.findOne({ _id: address.userId }, { projection })
      // A claim whose sign-up is under way (or crashed) names no account with this address.
      if (account?.email === email) return account
    }
    if (await isFilled()) return null
    const account = await credentials.findOne({ email }, { projection })
    if (account) await remember(email, account._id)
    return account
  }

  /**
   * Sign-up's claim on an address, before its account is stored: the unique `_id` lets one
   * of two parallel sign-ups in. A claim with no account behind it is either a sign-up
   * under way (refused, as the account it is about to store would be) or, once older than
   * `staleClaimMs`, one that crashed: taken over, compare-and-set, so of two takers one wins.
   */
  async function claim(email: string, userId: string): Promise<void> {
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      try {
        await addresses.insertOne({ _id: email, userId, claimedAt: now() })
        return
      } catch (error) {
        if (!isDuplicateKey(error)) throw error
      }
      const current = await addresses.findOne({ _id: email })
      if (!current) continue // released in between: try the insert again
      const holder = await credentials.findOne(
        { _id: current.userId },
        { projection: { email: 1 } },
      )
      if (holder?.email === email) throw new EmailTakenError()
      if (now().getTime() - current.claimedAt.getTime() < staleClaimMs) throw new EmailTakenError()
      const taken = await addresses.updateOne(
        { _id: email, userId: current.userId, claimedAt: current.claimedAt },
        { $set: { userId, claimedAt: now() } },
      )
      if (taken.modifiedCount === 1) return
      throw new EmailTakenError()
    }
    throw new EmailTakenError()
  }

  /**
   * The account's insert was refused by `email_unique`: another account holds the address
   * though the address document did not say so (an account stored before the addresses, or
   * a claim taken over from a sign-up that was only slow). The address goes to that account.
   */
  async function yieldClaim(email: string, userId: string): Promise<void> {
    const holder = await credentials.findOne({ email }, { projection: { _id: 1 } })
    if (holder) {
      await addresses.updateOne({ _id: email, userId }, { $set: { userId: holder._id } })
    } else {
      await addresses.deleteOne({ _id: email, userId })
    }
  }

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
     * Stores the account and its user.registered event in one write (the outbox), after its
     * address document: the address's unique `_id` settles the race of two sign-ups with one
     * address, and the account's `email_unique` index any race the claim did not see.
     */
    async insert(doc: NewCredential, events: DomainEvent[]): Promise<void> {
      await claim(doc.email, doc._id)
      try {
        await credentials.insertOne(insertWithEvents(doc, events))
      } catch (error) {
        if (isDuplicateKey(error)) {
          await yieldClaim(doc.email, doc._id)
          throw new EmailTakenError()
        }
        // Any other failure keeps the claim: the account may have been stored all the same.
        throw error
      }
    },

    /**
     * Gives every account stored before the address documents its address, once, then marks
     * the book filled (lookups stop asking the accounts). Run in the background at start; an
     * account that meanwhile holds a claim of someone else's sign-up takes its address back.
     * `stopped` ends it between batches (the service is closing); the next start goes on.
     */
    async fillAddressBook(stopped: () => boolean = () => false): Promise<number> {
      if (await isFilled()) return 0
      let written = 0
      let batch: Array<Pick<CredentialDoc, '_id' | 'email' | 'createdAt'>> = []
      // One upsert each, a batch at a time in parallel: a multi-statement bulk write of
      // upserts stalled the local server's database (FerretDB v1 behind its write serializer).
      const flush = async () => {
        await Promise.all(
          batch.map((account) =>
            addresses
              .updateOne(
                { _id: account.email },
                {
                  $set: { userId: account._id },
                  $setOnInsert: { claimedAt: account.createdAt },
                },
                { upsert: true },
              )
              .catch((error: unknown) => {
                // A sign-up or a lookup wrote it at the same moment: it names the account too.
                if (!isDuplicateKey(error)) throw error
              }),
          ),
        )
        written += batch.length
        batch = []
      }
      // A whole-collection read by design (docs/scale.md: listed, not failed); the accounts
      // are read first, so no cursor stays open across the writes.
      const all = await credentials.find({}, { projection: { email: 1, createdAt: 1 } }).toArray()
      for (const account of all) {
        if (stopped()) return written
        batch.push(account)
        if (batch.length === FILL_BATCH) await flush()
      }
      await flush()
      await addressBook.updateOne(
        { _id: ADDRESS_BOOK_FILLED },
        { $setOnInsert: { filledAt: now() } },
        { upsert: true },
      )
      filled = true
      return written
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

    /**
     * user.deleted: the account and its address. The address goes first, so a retry after a
     * failure in between still learns it from the account; only if it still names this
     * account (it never takes a newer sign-up's claim).
     */
    async remove(userId: string): Promise<void> {
      const account = await credentials.findOne({ _id: userId }, { projection: { email: 1 } })
      if (account) await addresses.deleteOne({ _id: account.email, userId })
      await credentials.deleteOne({ _id: userId })
    },
  }
}
export type CredentialsRepository = ReturnType<typeof createCredentialsRepository>
