import type { Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import { ageFromDateOfBirth } from '@marketplace/contracts/validation'
import type { EventHandlers } from '@marketplace/service-kit'

/**
 * A read model of people for services that show or check people they do not own (favorites,
 * reports): names from user.registered and user.profile-updated, the public worker profile
 * from worker-profile.updated, gone on user.deleted. Only public worker contacts ever arrive;
 * the date of birth stays here and only an age is shown.
 */
export interface CatalogWorker {
  title: string
  skills: string[]
  availability: string
  paymentType: string
  location: string
  infos: string
  publicContacts: string[]
  profilePicture: string | null
  isOnline: boolean
  category: string | null
}

export interface CatalogPerson {
  _id: string
  firstName: string
  lastName: string
  /** When the names were last set: the two topics that carry names are not ordered together. */
  namesAt: Date
  dateOfBirth: string | null
  isWorker: boolean
  worker: CatalogWorker | null
  takenDown: boolean
  /** Asked to delete the account (user.deletion-requested); absent on older entries. */
  deletionRequestedAt?: Date | null
  /** "Keep my account" (user.deletion-cancelled). */
  deletionCancelledAt?: Date | null
}

/**
 * In the 30-day grace period of an account deletion: asked and not cancelled
 * since. The two events travel on two topics (people.users, auth.users): the later decides.
 */
export function isDeletionPending(person: CatalogPerson | null | undefined): boolean {
  if (!person?.deletionRequestedAt) return false
  return !person.deletionCancelledAt || person.deletionRequestedAt > person.deletionCancelledAt
}

export function fullNameOf(person: Pick<CatalogPerson, 'firstName' | 'lastName'>): string {
  return `${person.firstName} ${person.lastName}`.trim()
}

/** A person as anyone may see them, in the shape the people service answers a stranger with. */
export function toPublicPersonView(person: CatalogPerson, now = new Date()) {
  const worker = person.worker
  return {
    _id: person._id,
    firstName: person.firstName,
    lastName: person.lastName,
    name: fullNameOf(person),
    age: person.dateOfBirth ? ageFromDateOfBirth(person.dateOfBirth, now) : null,
    isWorker: person.isWorker,
    title: worker?.title ?? '',
    skills: worker?.skills ?? [],
    availability: worker?.availability ?? '',
    paymentType: worker?.paymentType ?? '',
    location: worker?.location ?? '',
    infos: worker?.infos ?? '',
    contacts: (worker?.publicContacts ?? []).map((value) => ({
      value,
      visibility: 'public' as const,
    })),
    profilePicture: worker?.profilePicture ?? null,
    isOnline: worker?.isOnline ?? false,
    category: worker?.category ?? null,
  }
}

export type PublicPersonView = ReturnType<typeof toPublicPersonView>

/** Whether others may still see the person (a moderator's take-down hides the profile). */
export const isVisiblePerson = (
  person: CatalogPerson | null | undefined,
): person is CatalogPerson => !!person && !person.takenDown

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000

export function createPeopleCatalog(
  db: Db,
  options: {
    collection: string
    /** After user.deleted removed the person: the service drops what referred to them. */
    onDeleted?: (event: DomainEvent<'user.deleted'>) => Promise<void>
  },
) {
  const people = db.collection<CatalogPerson>(options.collection)
  const blank = { firstName: '', lastName: '', namesAt: new Date(0), dateOfBirth: null }

  /** Creates the entry with `onInsert` when missing and applies `set`; one atomic write. */
  async function upsert(id: string, set: Partial<CatalogPerson>, onInsert: Partial<CatalogPerson>) {
    const write = () =>
      people.updateOne({ _id: id }, { $set: set, $setOnInsert: onInsert }, { upsert: true })
    // Two first events of one person handled at once (they come from two topics) may both
    // try the insert; the loser's retry then updates the entry the winner made.
    await write().catch((error: unknown) =>
      isDuplicateKey(error) ? write() : Promise.reject(error),
    )
  }

  async function setNames(id: string, firstName: string, lastName: string, at: Date) {
    await upsert(
      id,
      {},
      {
        ...blank,
        firstName,
        lastName,
        namesAt: at,
        isWorker: false,
        worker: null,
        takenDown: false,
      },
    )
    // Only a newer name wins: user.registered replayed after an edit must not undo it.
    await people.updateOne(
      { _id: id, namesAt: { $lt: at } },
      { $set: { firstName, lastName, namesAt: at } },
    )
  }

  /** Keeps the later of the stored instant and `at`: a replay never moves it back. */
  async function later(
    id: string,
    field: 'deletionRequestedAt' | 'deletionCancelledAt',
    at: Date,
  ): Promise<void> {
    const onInsert = { ...blank, isWorker: false, worker: null, takenDown: false }
    const write = () =>
      people.updateOne(
        { _id: id },
        { $max: { [field]: at }, $setOnInsert: onInsert },
        { upsert: true },
      )
    await write().catch((error: unknown) =>
      isDuplicateKey(error) ? write() : Promise.reject(error),
    )
  }

  const handlers: EventHandlers = {
    'user.deletion-requested': async (event) =>
      later(event.data.userId, 'deletionRequestedAt', new Date(event.data.requestedAt)),
    'user.deletion-cancelled': async (event) =>
      later(event.data.userId, 'deletionCancelledAt', new Date(event.occurredAt)),
    'user.registered': async (event) => {
      const { data } = event
      await setNames(data.userId, data.firstName, data.lastName, new Date(event.occurredAt))
      await people.updateOne({ _id: data.userId }, { $set: { dateOfBirth: data.dateOfBirth } })
    },
    'user.profile-updated': async (event) => {
      const { data } = event
      await setNames(data.userId, data.firstName, data.lastName, new Date(event.occurredAt))
    },
    // Events of one user's profile come in order on one partition: the latest simply wins.
    'worker-profile.updated': async (event) => {
      const { data } = event
      const worker: CatalogWorker | null = data.isWorker
        ? {
            title: data.title ?? '',
            skills: data.skills ?? [],
            availability: data.availability ?? '',
            paymentType: data.paymentType ?? '',
            location: data.location ?? '',
            infos: data.infos ?? '',
            publicContacts: data.publicContacts ?? [],
            profilePicture: data.profilePicture ?? null,
            isOnline: data.isOnline ?? true,
            category: data.category ?? null,
          }
        : null
      await upsert(
        data.userId,
        { isWorker: data.isWorker, worker, takenDown: data.takenDown === true },
        blank,
      )
    },
    'user.deleted': async (event) => {
      await people.deleteOne({ _id: event.data.userId })
      await options.onDeleted?.(event)
    },
  }

  return {
    handlers,
    findById: (userId: string) => people.findOne({ _id: userId }),
    async findMany(userIds: readonly string[]): Promise<Map<string, CatalogPerson>> {
      if (userIds.length === 0) return new Map()
      const found = await people.find({ _id: { $in: [...userIds] } }).toArray()
      return new Map(found.map((person) => [person._id, person]))
    },
  }
}

export type PeopleCatalog = ReturnType<typeof createPeopleCatalog>
