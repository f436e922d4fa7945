import { nextLifeNoticeAt } from './post-life'
import type { PostsRepository } from './posts-repository'

const BATCH = 500

/**
 * Posts stored before the life notices existed have no `lifeNoticeAt`, so the sweep never
 * sees them: their owners would get no expiry warning until they edit or relist. At start-up
 * each such post gets the notice due for it now: a post still live gets its warning (at once
 * when its end is closer than the warning period), a post that expired before this change is
 * recorded as told (its requesters learned long ago that it is gone; telling them today would
 * be noise). Each write is guarded on the field still missing, so two instances starting
 * together, or an owner's edit meanwhile, never count twice. Answers how many posts it set.
 */
export async function backfillLifeNotices(
  posts: Pick<PostsRepository, 'withoutLifeNoticeField' | 'update'>,
  now: Date = new Date(),
): Promise<number> {
  let set = 0
  for (;;) {
    const batch = await posts.withoutLifeNoticeField(BATCH)
    if (batch.length === 0) return set
    for (const post of batch) {
      const expiredAlready = post.expiresAt !== null && post.expiresAt <= now && !post.filledAt
      const changes = expiredAlready
        ? { lifeNoticeAt: null, expiryClosedFor: post.expiresAt! }
        : { lifeNoticeAt: nextLifeNoticeAt(post) }
      const saved = await posts.update(post._id, { $set: changes }, [], {
        lifeNoticeAt: { $exists: false },
      })
      if (saved) set += 1
    }
  }
}
