import type { Db, Filter, UpdateFilter } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  findOneAndUpdateWithEvents,
  type IndexDefinition,
} from '@marketplace/service-kit'
import { PROFILES_COLLECTION, type ProfileDocument } from './profile-document'

/**
 * Profiles are read by `_id` (the user id) for users; the people feed and search are served
 * by the in-process feed index (src/feed), loaded by a natural-order scan. The outbox flag and
 * the two sweeps have their indexes.
 */
export const profileIndexes: IndexDefinition[] = [
  {
    collection: PROFILES_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
  // The purge sweep: deletions whose grace period is over and whose purge has not started.
  {
    collection: PROFILES_COLLECTION,
    keys: { 'deletion.purgeAfter': 1, 'deletion.purgeStartedAt': 1 },
    options: { name: 'purge_due' },
  },
  // The stale contact viewers sweep: only the profiles that granted a contact view.
  {
    collection: PROFILES_COLLECTION,
    keys: { contactViewers: 1 },
    options: { name: 'with_contact_viewers' },
  },
]

/** Fields user.registered brings; the rest is filled in here. */
export type NewProfile = Pick<
  ProfileDocument,
  | '_id'
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phoneNumber'
  | 'dateOfBirth'
  | 'interest'
  | 'emailPreferences'
  | 'registeredAt'
>

export function createProfilesRepository(
  db: Db,
  hooks: {
    /** After a write that stored events: wakes the outbox relay for that document. */
    notifyOutbox(target: { collection: string; id: string }): void
    /** After every change of a profile: its state now (null once gone), for the feed index. */
    profileChanged(userId: string, profile: ProfileDocument | null): void
  } = { notifyOutbox: () => {}, profileChanged: () => {} },
) {
  const profiles = db.collection<ProfileDocument>(PROFILES_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }

  return {
    /**
     * Creates the profile once: keyed by user id with $setOnInsert, so a redelivered
     * user.registered finds the document and changes nothing.
     */
    async createIfMissing(profile: NewProfile): Promise<boolean> {
      const at = new Date()
      const result = await profiles.updateOne(
        { _id: profile._id },
        { $setOnInsert: { ...profile, isWorker: false, createdAt: at, updatedAt: at } },
        { upsert: true },
      )
      if (result.upsertedCount === 1) {
        hooks.profileChanged(
          profile._id,
          await profiles.findOne({ _id: profile._id }, withoutOutbox),
        )
      }
      return result.upsertedCount === 1
    },

    findById: (id: string) => profiles.findOne({ _id: id }, withoutOutbox),

    async findByIds(ids: readonly string[]): Promise<Map<string, ProfileDocument>> {
      // One `_id` lookup each: on FerretDB only `_id` equality is pushed down.
      const found = await Promise.all(
        [...new Set(ids)].map((id) => profiles.findOne({ _id: id }, withoutOutbox)),
      )
      return new Map(found.filter((p): p is ProfileDocument => p !== null).map((p) => [p._id, p]))
    },

    /** Applies `update` when `guard` still matches; answers the profile after it. */
    async update(
      id: string,
      update: UpdateFilter<ProfileDocument>,
      events: DomainEvent[],
      guard: Filter<ProfileDocument> = {},
    ): Promise<ProfileDocument | null> {
      const result = await findOneAndUpdateWithEvents(
        profiles,
        { ...guard, _id: id } as Filter<ProfileDocument>,
        update,
        events,
      )
      if (result) {
        if (events.length > 0) hooks.notifyOutbox({ collection: PROFILES_COLLECTION, id })
        hooks.profileChanged(id, result)
      }
      return result
    },

    /** Profiles whose grace period is over and whose purge has not started. */
    dueForPurge: (now: Date) =>
      profiles
        .find(
          { 'deletion.purgeAfter': { $lte: now }, 'deletion.purgeStartedAt': { $exists: false } },
          { projection: { _id: 1 } },
        )
        .toArray(),

    /** Profiles some owner may see the hidden contacts of (user.deleted cleans them). */
    withContactViewers: () =>
      profiles
        .find({ contactViewers: { $exists: true } }, { projection: { contactViewers: 1 } })
        .toArray(),

    async delete(userId: string): Promise<void> {
      await profiles.deleteOne({ _id: userId })
      hooks.profileChanged(userId, null)
    },

    /** Every profile, in natural order (the feed index's load). */
    findAll: () => profiles.find({}, { ...withoutOutbox, batchSize: 1000 }).toArray(),
  }
}

export type ProfilesRepository = ReturnType<typeof createProfilesRepository>
