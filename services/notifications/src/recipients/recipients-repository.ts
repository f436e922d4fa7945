import type { Db } from 'mongodb'
import {
  NOTIFICATION_PREFERENCE_DEFAULTS,
  type NotificationPreferences,
} from '@marketplace/contracts/marketplace'
import type { EventHandlers } from '@marketplace/service-kit'

export const RECIPIENTS_COLLECTION = 'recipients'

/**
 * What this service knows of a user: where to mail them and how to greet them (from
 * user.registered and user.profile-updated), and the notification preferences they saved.
 * Preferences a user never saved read as the defaults (spec 2 §3: all on but mobile).
 */
export interface RecipientDocument {
  _id: string
  email?: string
  firstName?: string
  preferences?: Partial<NotificationPreferences>
  updatedAt: Date
}

/** The five flags of a recipient (or of someone unknown): saved values over the defaults. */
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
          $setOnInsert: { firstName: data.firstName },
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
    /** Saves the flags given (the others keep their value); answers all five. */
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
