import type { Db } from 'mongodb'
import type { EventHandlers } from '@marketplace/service-kit'

/**
 * What the jobs service knows of users, from the identity and people events: enough to show
 * a requester beside a request and to know who has a worker profile, without asking another
 * service on the request path. Every write is one upsert addressed by `_id`.
 */
export const USERS_COLLECTION = 'users'

export interface UserCard {
  _id: string
  firstName: string
  lastName: string
  email: string
  isWorker: boolean
  title: string
  skills: string[]
  profilePicture: string | null
  /** Asked to delete the account (user.deletion-requested); absent on older cards. */
  deletionRequestedAt?: Date | null
  /** "Keep my account" (user.deletion-cancelled). */
  deletionCancelledAt?: Date | null
  updatedAt: Date
}

/**
 * In the 30-day grace period: asked for deletion and not cancelled since. The two
 * events travel on two topics (people.users, auth.users), so the later instant decides.
 */
export function isDeletionPending(card: UserCard | null | undefined): boolean {
  if (!card?.deletionRequestedAt) return false
  return !card.deletionCancelledAt || card.deletionRequestedAt > card.deletionCancelledAt
}

const BLANK = {
  firstName: '',
  lastName: '',
  email: '',
  isWorker: false,
  title: '',
  skills: [],
  profilePicture: null,
}

export function createUserDirectory(db: Db) {
  const users = db.collection<UserCard>(USERS_COLLECTION)

  /** Sets some fields of a user's card, creating the card with blanks when it is new. */
  async function merge(userId: string, fields: Partial<Omit<UserCard, '_id'>>): Promise<void> {
    const onInsert = Object.fromEntries(Object.entries(BLANK).filter(([key]) => !(key in fields)))
    await users.updateOne(
      { _id: userId },
      { $set: { ...fields, updatedAt: new Date() }, $setOnInsert: onInsert },
      { upsert: true },
    )
  }

  /** Keeps the later of the stored instant and `at` (a replay never moves it back). */
  async function later(
    userId: string,
    field: 'deletionRequestedAt' | 'deletionCancelledAt',
    at: Date,
  ): Promise<void> {
    const onInsert = { ...BLANK }
    await users.updateOne(
      { _id: userId },
      { $max: { [field]: at }, $set: { updatedAt: new Date() }, $setOnInsert: onInsert },
      { upsert: true },
    )
  }

  const handlers: EventHandlers = {
    'user.registered': async ({ data }) =>
      merge(data.userId, { firstName: data.firstName, lastName: data.lastName, email: data.email }),
    'user.profile-updated': async ({ data }) =>
      merge(data.userId, { firstName: data.firstName, lastName: data.lastName }),
    'worker-profile.updated': async ({ data }) =>
      merge(data.userId, {
        isWorker: data.isWorker,
        ...(data.title !== undefined ? { title: data.title } : {}),
        ...(data.skills !== undefined ? { skills: data.skills } : {}),
        ...(data.profilePicture !== undefined ? { profilePicture: data.profilePicture } : {}),
      }),
    'user.deletion-requested': async ({ data }) =>
      later(data.userId, 'deletionRequestedAt', new Date(data.requestedAt)),
    'user.deletion-cancelled': async ({ data, occurredAt }) =>
      later(data.userId, 'deletionCancelledAt', new Date(occurredAt)),
    'user.deleted': async ({ data }) => {
      await users.deleteOne({ _id: data.userId })
    },
  }

  return {
    handlers,
    /** Whether the user is in the grace period of an account deletion. */
    isLeaving: async (userId: string) => isDeletionPending(await users.findOne({ _id: userId })),
    async find(ids: readonly string[]): Promise<Map<string, UserCard>> {
      // One `_id` lookup each: the only lookup FerretDB pushes down; lists are short.
      const found = await Promise.all([...new Set(ids)].map((id) => users.findOne({ _id: id })))
      return new Map(
        found.filter((user): user is UserCard => user !== null).map((user) => [user._id, user]),
      )
    },
  }
}

export type UserDirectory = ReturnType<typeof createUserDirectory>

/** "First Last", or the product's default when the user is unknown. */
export function displayName(user: UserCard | undefined): string {
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : ''
  return name || 'Unknown User'
}
