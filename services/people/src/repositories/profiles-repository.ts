import type { Db } from 'mongodb'
import type { IndexDefinition } from '@marketplace/service-kit'

export const PROFILES = 'profiles'

export interface ProfileDoc {
  /** The user id the auth service gave the account. */
  _id: string
  firstName: string
  lastName: string
  phoneNumber: string
  dateOfBirth: string
  interest: 'Posts' | 'People' | 'Both' | null
  emailPreferences: boolean
  isWorker: boolean
  createdAt: Date
  /** When user.registered was stored by auth: lets a replay keep the original. */
  registeredAt: Date
}

export const profileIndexes: IndexDefinition[] = [
  {
    collection: PROFILES,
    keys: { isWorker: 1, createdAt: -1, _id: -1 },
    options: { name: 'workers_by_date' },
  },
]

export function createProfilesRepository(db: Db) {
  const profiles = db.collection<ProfileDoc>(PROFILES)
  return {
    /**
     * Creates the profile once: keyed by user id with $setOnInsert, so a redelivered
     * user.registered finds the document and changes nothing.
     */
    async createIfMissing(profile: Omit<ProfileDoc, 'createdAt'>): Promise<boolean> {
      const result = await profiles.updateOne(
        { _id: profile._id },
        { $setOnInsert: { ...profile, createdAt: new Date() } },
        { upsert: true },
      )
      return result.upsertedCount === 1
    },
    findById: (id: string) => profiles.findOne({ _id: id }),
  }
}
export type ProfilesRepository = ReturnType<typeof createProfilesRepository>
