import type { FastifyBaseLogger } from 'fastify'
import type { PostLifeService } from './post-life-service'

/**
 * Every `intervalMs`, sends the life notices that are due: expiry warnings and the notices of
 * expired posts to their pending requesters. Every instance sweeps; each notice is claimed on
 * its post, so two instances never send one twice. A run that fails is tried again next
 * time. Answers the stop function.
 */
export function schedulePostLifeSweep(
  life: Pick<PostLifeService, 'sweep'>,
  intervalMs: number,
  logger: FastifyBaseLogger,
): () => void {
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    life
      .sweep()
      .then(({ warned, closed }) => {
        if (warned + closed > 0) logger.info({ warned, closed }, 'post life notices sent')
      })
      .catch((error: unknown) => logger.error({ err: error }, 'post life sweep failed'))
      .finally(() => {
        running = false
      })
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
