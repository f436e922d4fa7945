import { MongoServerError, type Db, type Filter, type UpdateFilter } from 'mongodb'
import { DELETED_USER_NAME } from '@marketplace/contracts/marketplace'
import type { EventHandlers } from '@marketplace/service-kit'

/**
 * What the conversations service knows of users, from the identity and people events: the
 * parties' names and pictures, and whether an account is being deleted or was purged (both
 * make a conversation read-only). Every read and write addresses one card by `_id`.
 */
export const USERS_COLLECTION = 'users'

export interface UserCard {
  _id: string
  firstName: string
  lastName: string
  profilePicture: string | null
  /** When the names were set: user.registered and user.profile-updated come on two topics. */
  namesAt: Date | null
  deletionRequestedAt: Date | null
  deletionCancelledAt: Date | null
  /** Purged (user.deleted): nothing of the user is kept but this. */
  deleted: boolean
}

const BLANK: Omit<UserCard, '_id'> = {
  firstName: '',
  lastName: '',
  profilePicture: null,
  namesAt: null,
  deletionRequestedAt: null,
  deletionCancelledAt: null,
  deleted: false,
}

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

/** In its grace period: asked for deletion, and not cancelled since. */
export function isDeletionPending(card: UserCard | undefined): boolean {
  if (!card?.deletionRequestedAt || card.deleted) return false
  return !card.deletionCancelledAt || card.deletionRequestedAt > card.deletionCancelledAt
}

/** "First Last"; "Deleted user" after the purge; the request's name while the card is unknown. */
export function displayName(card: UserCard | undefined, fallback = ''): string {
  if (card?.deleted) return DELETED_USER_NAME
  const name = card ? `${card.firstName} ${card.lastName}`.trim() : ''
  return name || fallback || 'Unknown User'
}

export function createUserDirectory(db: Db) {
  const users = db.collection<UserCard>(USERS_COLLECTION)

  /**
   * Applies `update` to the card (created with blanks when new) unless the user was purged
   * or `guard` says the card already holds something newer. A purged card is never revived:
   * the filter misses it, the upsert collides with it, and the event is dropped.
   */
  async function change(
    userId: string,
    update: { $set?: Partial<UserCard>; $max?: Partial<UserCard> },
    guard: Filter<UserCard> = {},
  ): Promise<void> {
    const fields = new Set([...Object.keys(update.$set ?? {}), ...Object.keys(update.$max ?? {})])
    const onInsert = Object.fromEntries(Object.entries(BLANK).filter(([key]) => !fields.has(key)))
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        await users.updateOne(
          { _id: userId, deleted: { $ne: true }, ...guard },
          { ...update, $setOnInsert: onInsert } as UpdateFilter<UserCard>,
          { upsert: true },
        )
        return
      } catch (error) {
        // Two events of a new user at once (the loser updates the card the winner made), or
        // a card the guard refuses (purged, or newer names): the retry collides again.
        if (!isDuplicateKey(error)) throw error
      }
    }
  }

  const setNames = (userId: string, firstName: string, lastName: string, at: Date) =>
    change(
      userId,
      { $set: { firstName, lastName, namesAt: at } },
      {
        $or: [{ namesAt: null }, { namesAt: { $lte: at } }],
      },
    )

  const handlers: EventHandlers = {
    'user.registered': async ({ data, occurredAt }) =>
      setNames(data.userId, data.firstName, data.lastName, new Date(occurredAt)),
    'user.profile-updated': async ({ data, occurredAt }) =>
      setNames(data.userId, data.firstName, data.lastName, new Date(occurredAt)),
    'worker-profile.updated': async ({ data }) => {
      if (data.profilePicture === undefined) return
      await change(data.userId, { $set: { profilePicture: data.profilePicture } })
    },
    // Requested and cancelled travel on two topics: the later of each decides (isDeletionPending).
    'user.deletion-requested': async ({ data }) =>
      change(data.userId, { $max: { deletionRequestedAt: new Date(data.requestedAt) } }),
    'user.deletion-cancelled': async ({ data, occurredAt }) =>
      change(data.userId, { $max: { deletionCancelledAt: new Date(occurredAt) } }),
    'user.deleted': async ({ data }) => {
      await users.replaceOne({ _id: data.userId }, { ...BLANK, deleted: true }, { upsert: true })
    },
  }

  return {
    handlers,
    async find(ids: readonly string[]): Promise<Map<string, UserCard>> {
      // One `_id` lookup each: the only lookup FerretDB pushes down; lists are 30 at most.
      const found = await Promise.all([...new Set(ids)].map((id) => users.findOne({ _id: id })))
      return new Map(
        found.filter((user): user is UserCard => user !== null).map((user) => [user._id, user]),
      )
    },
  }
}

export type UserDirectory = ReturnType<typeof createUserDirectory>
