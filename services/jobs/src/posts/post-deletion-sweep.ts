import type { FastifyBaseLogger } from 'fastify'
import type { PostsService } from './posts-service'

/**
 * Every `intervalMs`, finishes the post deletions begun more than `intervalMs` ago: a live
 * deletion takes milliseconds, so one that old was interrupted (a crash, a lost database
 * connection). A run that fails is tried again next time. Answers the stop function.
 */
export function schedulePostDeletionSweep(
  posts: Pick<PostsService, 'finishDeletions'>,
  intervalMs: number,
  logger: FastifyBaseLogger,
): () => void {
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    posts
      .finishDeletions(new Date(Date.now() - intervalMs))
      .then((finished) => {
        if (finished > 0) logger.warn({ finished }, 'interrupted post deletions finished')
      })
      .catch((error: unknown) => logger.error({ err: error }, 'post deletion sweep failed'))
      .finally(() => {
        running = false
      })
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
