import type { FastifyBaseLogger } from 'fastify'
import { newEvent } from '@marketplace/service-kit'
import type { KnownPosts } from '../posts/known-posts'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import type { PeopleRequestsRepository } from '../requests/people-requests-repository'

/**
 * The end of the 30-day grace period (docs/people.md "Account deletion"):
 * - `purgeDue`, run on a timer, claims each profile whose grace period is over by setting
 *   `deletion.purgeStartedAt` in the same guarded write that stores user.deleted in the
 *   profile's outbox, so exactly one replica emits it, and a crash loses nothing;
 * - `removeUser`, the people service's own user.deleted consumer, deletes what this service
 *   holds of the user. Every other service does the same in its own consumer.
 */
export function createAccountPurge(deps: {
  profiles: ProfilesRepository
  requests: PeopleRequestsRepository
  knownPosts: KnownPosts
  logger: FastifyBaseLogger
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  async function purgeDue(): Promise<number> {
    const at = now()
    let started = 0
    for (const { _id: userId } of await deps.profiles.dueForPurge(at)) {
      const claimed = await deps.profiles.update(
        userId,
        { $set: { 'deletion.purgeStartedAt': at } },
        [newEvent('user.deleted', { aggregateId: userId, actorId: null, data: { userId } })],
        { 'deletion.purgeAfter': { $lte: at }, 'deletion.purgeStartedAt': { $exists: false } },
      )
      if (claimed) started += 1
    }
    if (started > 0) deps.logger.info({ started }, 'account purges started')
    return started
  }

  async function removeUser(userId: string): Promise<void> {
    await deps.requests.deleteOfUser(userId)
    await deps.knownPosts.deleteOfOwner(userId)
    // Entries "ownerId:jobRequestId" the user held on workers' profiles.
    for (const profile of await deps.profiles.withContactViewers()) {
      for (const entry of profile.contactViewers ?? []) {
        if (entry.startsWith(`${userId}:`)) {
          await deps.profiles.update(profile._id, { $pull: { contactViewers: entry } }, [])
        }
      }
    }
    await deps.profiles.delete(userId)
  }

  /** Runs `purgeDue` every `intervalMs` until stopped; a failed run is retried next time. */
  function schedule(intervalMs: number): () => void {
    let running = false
    const timer = setInterval(() => {
      if (running) return
      running = true
      purgeDue()
        .catch((error: unknown) => deps.logger.error({ err: error }, 'account purge failed'))
        .finally(() => {
          running = false
        })
    }, intervalMs)
    timer.unref()
    return () => clearInterval(timer)
  }

  return { purgeDue, removeUser, schedule }
}

export type AccountPurge = ReturnType<typeof createAccountPurge>
