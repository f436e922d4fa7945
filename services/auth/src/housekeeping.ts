import type { FastifyBaseLogger } from 'fastify'

/**
 * FerretDB has no TTL indexes, so expired sessions, codes and rate-limit counters are
 * removed by a timer. Every instance runs it; the deletes are idempotent.
 */
export function startHousekeeping(
  tasks: Record<string, (before: Date) => Promise<number>>,
  log: FastifyBaseLogger,
  intervalMs = 10 * 60 * 1000,
): () => void {
  const run = async () => {
    const now = new Date()
    for (const [name, task] of Object.entries(tasks)) {
      try {
        const removed = await task(now)
        if (removed > 0) log.info({ task: name, removed }, 'housekeeping removed expired records')
      } catch (error) {
        log.warn({ err: error, task: name }, 'housekeeping task failed; it runs again later')
      }
    }
  }
  const timer = setInterval(() => void run(), intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
