import { MongoServerError, type Db } from 'mongodb'
import {
  NOTIFICATION_PREFERENCE_DEFAULTS,
  type NotificationPreferences,
} from '@marketplace/contracts/marketplace'
import type { EventHandlers } from '@marketplace/service-kit'

export const RECIPIENTS_COLLECTION = 'recipients'

/**
 * What this service knows of a user: where to mail them and how to greet them (from
 * user.registered and user.profile-updated), and the notification preferences they saved.
 * Preferences a user never saved read as the defaults (all on but mobile push).
 */
export interface RecipientDocument {
  _id: string
  email?: string
  firstName?: string
  preferences?: Partial<NotificationPreferences>
  /**
   * Unread notifications, kept here so a live push needs no count: a count over the
   * notifications costs a scan on the local FerretDB, and grows with them. Counted up when a
   * notification is stored; set to the exact count by every read of the list or the count
   * (docs/notifications.md, "The unread count").
   */
  unreadCount?: number
  /** The number the user's last notification took (notification-buckets.ts). */
  notificationSeq?: number
  /** How many notices each of the user's buckets holds: `{ b0: 50, b1: 12 }`. */
  notificationBuckets?: Record<string, number>
  /**
   * Whether the user's notifications are all in buckets: true from the start for a user who
   * registered since the buckets exist; set by the one-time fill for anyone older.
   */
  notificationsBucketed?: boolean
  updatedAt: Date
}

/**
 * The six flags of a recipient (or of someone unknown): saved values over the defaults, so a
 * user who saved before Messages existed has it on.
 */
export function preferencesOfRecipient(
  recipient: Pick<RecipientDocument, 'preferences'> | null,
): NotificationPreferences {
  return { ...NOTIFICATION_PREFERENCE_DEFAULTS, ...(recipient?.preferences ?? {}) }
}

export function createRecipients(db: Db) {
  const recipients = db.collection<RecipientDocument>(RECIPIENTS_COLLECTION)

  async function preferencesOf(userId: string): Promise<NotificationPreferences> {
    return preferencesOfRecipient(await recipients.findOne({ _id: userId }))
  }

  const handlers: EventHandlers = {
    // The first name only when none is known: a replayed sign-up never undoes a rename.
    'user.registered': async ({ data }) => {
      await recipients.updateOne(
        { _id: data.userId },
        {
          $set: { email: data.email, updatedAt: new Date() },
          // Someone new has no notification stored before the buckets: nothing to fill.
          $setOnInsert: { firstName: data.firstName, notificationsBucketed: true },
        },
        { upsert: true },
      )
    },
    'user.profile-updated': async ({ data }) => {
      await recipients.updateOne(
        { _id: data.userId },
        { $set: { firstName: data.firstName, updatedAt: new Date() } },
        { upsert: true },
      )
    },
  }

  return {
    handlers,
    findById: (userId: string) => recipients.findOne({ _id: userId }),
    preferencesOf,

    /**
     * Counts one more unread notification for the user and gives it the next number in their
     * history, in the same write that reads their preferences: answers all three, the count
     * including the new one, and whether their older notifications are in buckets yet.
     */
    async countIncoming(userId: string): Promise<{
      preferences: NotificationPreferences
      unreadCount: number
      seq: number
      bucketed: boolean
    }> {
      const update = {
        $inc: { unreadCount: 1, notificationSeq: 1 },
        $setOnInsert: { updatedAt: new Date() },
      }
      const after = { returnDocument: 'after' } as const
      let recipient: RecipientDocument | null
      try {
        recipient = await recipients.findOneAndUpdate({ _id: userId }, update, {
          ...after,
          upsert: true,
        })
      } catch (error) {
        // Two first notifications of an unknown user at once: the other upsert created it.
        if (!(error instanceof MongoServerError && error.code === 11000)) throw error
        recipient = await recipients.findOneAndUpdate({ _id: userId }, update, after)
      }
      return {
        preferences: preferencesOfRecipient(recipient),
        unreadCount: Math.max(1, recipient?.unreadCount ?? 1),
        seq: recipient?.notificationSeq ?? 1,
        bucketed: recipient?.notificationsBucketed === true,
      }
    },

    /** Takes back a countIncoming whose notification was not stored after all. */
    uncount: async (userId: string) => {
      await recipients.updateOne({ _id: userId }, { $inc: { unreadCount: -1 } })
    },

    /** Saves the flags given (the others keep their value); answers all six. */
    async savePreferences(
      userId: string,
      changes: Partial<NotificationPreferences>,
    ): Promise<NotificationPreferences> {
      const set: Record<string, unknown> = { updatedAt: new Date() }
      for (const [flag, value] of Object.entries(changes)) set[`preferences.${flag}`] = value
      await recipients.updateOne({ _id: userId }, { $set: set }, { upsert: true })
      return preferencesOf(userId)
    },
    deleteOfUser: async (userId: string) => {
      await recipients.deleteOne({ _id: userId })
    },
  }
}

export type Recipients = ReturnType<typeof createRecipients>
