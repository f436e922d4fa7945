import type { DomainEvent } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { BadRequestError, ForbiddenError, newEvent, NotFoundError } from '@marketplace/service-kit'
import { locatePlace, resolvePlace } from '@marketplace/geo'
import type { ProfileDocument, WorkerProfile } from './profile-document'
import { readAccountUpdate, readWorkerProfile, readWorkerStatus } from './profile-input'
import type { ProfilesRepository } from './profiles-repository'
import { workerCategory, workerSearchWords } from './worker-fields'

interface Context {
  callerId: string
  requestId?: string
}

/**
 * The profile use cases: account edit, worker profile, online switch, and who may see hidden
 * contacts. Each change is stored with its event (outbox) under an optimistic guard on
 * `updatedAt`: when another edit landed since the profile was read, the change is computed
 * again on the fresh profile, so derived fields (category, search words) never go stale.
 */
export function createProfilesService(deps: {
  profiles: ProfilesRepository
  /** How long a deleted account can still be kept (30 days). */
  gracePeriodMs: number
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  async function existing(userId: string): Promise<ProfileDocument> {
    const profile = await deps.profiles.findById(userId)
    // Sign-up creates the profile from user.registered a moment later; until then, or after
    // a deletion, there is nothing to change.
    if (!profile) throw new NotFoundError('User not found', 'USER_NOT_FOUND')
    return profile
  }

  /** worker-profile.updated; the actor is null for a moderator's take-down (a system action). */
  function workerEvent(
    profile: ProfileDocument,
    context: { callerId: string | null; requestId?: string },
  ) {
    return newEvent('worker-profile.updated', {
      aggregateId: profile._id,
      actorId: context.callerId,
      requestId: context.requestId,
      data: {
        userId: profile._id,
        isWorker: profile.isWorker,
        title: profile.worker?.title,
        skills: profile.worker?.skills,
        profilePicture: profile.worker?.profilePicture ?? null,
        isOnline: profile.worker ? profile.worker.isOnline && !profile.takenDownAt : undefined,
        availability: profile.worker?.availability,
        paymentType: profile.worker?.paymentType,
        location: profile.worker?.location,
        infos: profile.worker?.infos,
        // Hidden contacts never leave this service in an event.
        publicContacts: profile.worker?.contacts
          .filter((contact) => contact.visibility === 'public')
          .map((contact) => contact.value),
        category: profile.worker?.category ?? null,
        takenDown: !!profile.takenDownAt,
      },
    })
  }

  /** Writes `change(current)` guarded by the `updatedAt` read; retries on a lost race. */
  async function guardedUpdate(
    userId: string,
    change: (current: ProfileDocument) => {
      set: Partial<ProfileDocument>
      events: (next: ProfileDocument) => DomainEvent[]
    },
  ): Promise<ProfileDocument> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const current = await existing(userId)
      const { set, events } = change(current)
      if (Object.keys(set).length === 0) return current
      const at = now()
      const next = { ...current, ...set, updatedAt: at }
      const saved = await deps.profiles.update(
        userId,
        { $set: { ...set, updatedAt: at } },
        events(next),
        // Profiles from before updatedAt existed carry none: the guard then asks for none.
        current.updatedAt ? { updatedAt: current.updatedAt } : { updatedAt: { $exists: false } },
      )
      if (saved) return saved
    }
    throw new Error(`profile ${userId} kept changing during an update`)
  }

  async function updateAccount(
    userId: string,
    body: unknown,
    context: Context,
  ): Promise<ProfileDocument> {
    const update = readAccountUpdate(body)
    return guardedUpdate(userId, (current) => {
      const set: Partial<ProfileDocument> = { ...update }
      if (current.worker) {
        set.worker = { ...current.worker, searchWords: workerSearchWords(update, current.worker) }
      }
      return {
        set,
        events: (next) => [
          newEvent('user.profile-updated', {
            aggregateId: userId,
            actorId: context.callerId,
            requestId: context.requestId,
            data: {
              userId,
              firstName: next.firstName,
              lastName: next.lastName,
              phoneNumber: next.phoneNumber,
            },
          }),
        ],
      }
    })
  }

  /** Creates or replaces the worker profile; creating it makes the user a worker. */
  async function saveWorkerProfile(
    userId: string,
    body: unknown,
    context: Context,
  ): Promise<ProfileDocument> {
    const current = await existing(userId)
    const fields = readWorkerProfile(body, userId, current.worker)
    return guardedUpdate(userId, (fresh) => {
      const worker: WorkerProfile = {
        ...fields,
        // Editing a profile a moderator took down keeps it offline.
        isOnline: fields.isOnline && !fresh.takenDownAt,
        category: workerCategory(fields.title, fields.skills),
        searchWords: workerSearchWords(fresh, fields),
        geo: locatePlace(fields.location),
      }
      return { set: { isWorker: true, worker }, events: (next) => [workerEvent(next, context)] }
    })
  }

  async function setWorkerStatus(
    userId: string,
    body: unknown,
    context: Context,
  ): Promise<ProfileDocument> {
    const isOnline = readWorkerStatus(body)
    return guardedUpdate(userId, (current) => {
      if (!current.worker) {
        throw new NotFoundError('Create your worker profile first', 'WORKER_PROFILE_MISSING')
      }
      if (current.takenDownAt && isOnline) {
        throw new ForbiddenError(Messages.workerProfile.takenDown, 'TAKEN_DOWN')
      }
      return {
        set: { worker: { ...current.worker, isOnline } },
        events: (next) => [workerEvent(next, context)],
      }
    })
  }

  /**
   * job-request.created / .deleted: the owner of a post the worker requested may see the
   * worker's hidden contacts while the request exists.
   */
  async function setContactViewer(
    workerId: string,
    ownerId: string,
    jobRequestId: string,
    allowed: boolean,
  ): Promise<void> {
    const entry = `${ownerId}:${jobRequestId}`
    // The event tells the other people instances, whose feeds hold each worker's viewers and
    // would otherwise show the owner the worker's old contacts until they restart.
    await deps.profiles.update(
      workerId,
      allowed ? { $addToSet: { contactViewers: entry } } : { $pull: { contactViewers: entry } },
      [
        newEvent('worker.contact-viewers-changed', {
          aggregateId: workerId,
          actorId: null,
          data: { workerId },
        }),
      ],
    )
  }

  /**
   * DELETE /api/users/{id}: the grace period starts. The profile leaves every
   * feed at once; auth ends every session on user.deletion-requested. Asking again changes
   * nothing and answers the same date.
   */
  async function requestDeletion(userId: string, context: Context): Promise<ProfileDocument> {
    return guardedUpdate(userId, (current) => {
      // Asked again: nothing changes, the first date stands.
      if (current.deletion) return { set: {}, events: () => [] }
      const requestedAt = now()
      const deletion = {
        requestedAt,
        purgeAfter: new Date(requestedAt.getTime() + deps.gracePeriodMs),
      }
      return {
        set: { deletion },
        events: () => [
          newEvent('user.deletion-requested', {
            aggregateId: userId,
            actorId: context.callerId,
            requestId: context.requestId,
            data: {
              userId,
              requestedAt: deletion.requestedAt.toISOString(),
              purgeAfter: deletion.purgeAfter.toISOString(),
            },
          }),
        ],
      }
    })
  }

  /** user.deletion-cancelled (auth, after "Keep my account" with the password). */
  async function cancelDeletion(userId: string): Promise<void> {
    // Never once the purge has started: user.deleted is already on its way.
    await deps.profiles.update(userId, { $set: { deletion: null, updatedAt: now() } }, [], {
      'deletion.purgeStartedAt': { $exists: false },
    })
  }

  /** report.resolved with take-down (reports service): the worker profile is hidden for good. */
  async function takeDown(userId: string): Promise<void> {
    const profile = await deps.profiles.findById(userId)
    if (!profile || profile.takenDownAt) return
    await guardedUpdate(userId, (current) => ({
      set: current.takenDownAt ? {} : { takenDownAt: now() },
      events: (next) => [workerEvent(next, { callerId: null })],
    }))
  }

  /**
   * The user's home place: a place the gazetteer knows, or '' to clear it. Private: only the
   * self view shows it, and no event carries it.
   */
  async function setHomePlace(userId: string, text: string): Promise<ProfileDocument> {
    const homePlace = text.trim()
    if (homePlace !== '' && !resolvePlace(homePlace)) {
      throw new BadRequestError(
        `We don't know the place "${homePlace}". Try a town and state, like "Austin, TX", or a US ZIP code.`,
        'UNKNOWN_PLACE',
      )
    }
    // '' stands for none (the self view leaves it out): the guarded update only sets fields.
    return guardedUpdate(userId, (current) => ({
      set: (current.homePlace ?? '') === homePlace ? {} : { homePlace },
      events: () => [],
    }))
  }

  return {
    takeDown,
    setHomePlace,
    updateAccount,
    saveWorkerProfile,
    setWorkerStatus,
    setContactViewer,
    requestDeletion,
    cancelDeletion,
  }
}

export type ProfilesService = ReturnType<typeof createProfilesService>
