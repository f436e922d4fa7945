import type { Db } from 'mongodb'
import type { FastifyBaseLogger } from 'fastify'
import type { KnownPosts } from '../posts/known-posts'
import type { KnownJobRequests } from '../ratings/known-job-requests'
import type { ProfilesRepository } from './profiles-repository'

/** One document per one-off start-up step done, keyed by the step's name. */
export const MIGRATIONS_COLLECTION = 'migrations'

/**
 * Until then the jobs service deleted a deleted post's requests without a
 * job-request.deleted each, so the post's owner kept an entry "ownerId:jobRequestId" in every
 * requester's `contactViewers`, and saw their hidden contacts for good. This step takes back
 * every entry whose request is known deleted or whose post is known deleted (known-posts.ts
 * and known-job-requests.ts keep deletion markers). An entry of an unknown request is left:
 * it cannot come from a deleted post (the same handler records the request and the entry).
 */
export const STALE_CONTACT_VIEWERS_STEP = 'issue-18-contact-viewers-of-deleted-requests'

export function createStaleContactViewersCleanup(deps: {
  db: Db
  profiles: ProfilesRepository
  knownPosts: KnownPosts
  jobRequests: KnownJobRequests
  logger: FastifyBaseLogger
}) {
  const steps = deps.db.collection<{ _id: string; doneAt: Date; removed: number }>(
    MIGRATIONS_COLLECTION,
  )

  async function isStale(jobRequestId: string): Promise<boolean> {
    const request = await deps.jobRequests.findById(jobRequestId)
    if (!request) return false
    if (request.deleted) return true
    return (await deps.knownPosts.findById(request.postId))?.deleted === true
  }

  /** Takes back every stale entry; safe to repeat. Answers how many it took back. */
  async function clean(): Promise<number> {
    let removed = 0
    for (const profile of await deps.profiles.withContactViewers()) {
      for (const entry of profile.contactViewers ?? []) {
        const jobRequestId = entry.slice(entry.indexOf(':') + 1)
        if (!(await isStale(jobRequestId))) continue
        await deps.profiles.update(profile._id, { $pull: { contactViewers: entry } }, [])
        removed += 1
      }
    }
    return removed
  }

  /**
   * Runs `clean` unless a start of any replica already did; two replicas starting at once
   * both clean, which is harmless. The scan reads every profile with viewers, hence once.
   */
  async function runOnce(): Promise<void> {
    if (await steps.findOne({ _id: STALE_CONTACT_VIEWERS_STEP })) return
    const removed = await clean()
    await steps.updateOne(
      { _id: STALE_CONTACT_VIEWERS_STEP },
      { $setOnInsert: { doneAt: new Date(), removed } },
      { upsert: true },
    )
    deps.logger.info({ step: STALE_CONTACT_VIEWERS_STEP, removed }, 'start-up step done')
  }

  return { clean, runOnce }
}
