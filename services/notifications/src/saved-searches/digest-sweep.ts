import type { FastifyBaseLogger } from 'fastify'
import type { SavedSearchMailer } from './saved-search-mail'
import type { SavedSearchesRepository } from './saved-searches-repository'

/** At most this many digests per run, so one run never holds the timer for long. */
const DIGESTS_PER_RUN = 200

/**
 * Every `intervalMs`, catches the index up with other instances (`catchUp`) and mails the
 * daily digests that are due. Every instance sweeps; each
 * digest is claimed with one guarded write on its search (claimDueDigest), so two instances
 * never mail one twice. A digest whose mail fails after its claim is lost (logged): a day's
 * matches are also in the user's notifications, and retrying could mail it twice.
 */
export function scheduleDigestSweep(
  deps: {
    searches: SavedSearchesRepository
    mailer: SavedSearchMailer
    /**
     * The matcher's catch-up with other instances' changes, run first: posts run it too, but
     * without posts for a while its window would outgrow the changes kept.
     */
    catchUp?: () => Promise<void>
  },
  intervalMs: number,
  logger: FastifyBaseLogger,
): () => void {
  let running = false
  async function run(): Promise<number> {
    await deps.catchUp?.()
    let sent = 0
    for (let i = 0; i < DIGESTS_PER_RUN; i += 1) {
      const claimed = await deps.searches.claimDueDigest(new Date())
      if (!claimed) break
      try {
        await deps.mailer.sendDigest(claimed)
        sent += 1
      } catch (error) {
        logger.error({ err: error, savedSearchId: claimed._id }, 'saved search digest not sent')
      }
    }
    return sent
  }
  const timer = setInterval(() => {
    if (running) return
    running = true
    run()
      .then((sent) => {
        if (sent > 0) logger.info({ sent }, 'saved search digests sent')
      })
      .catch((error: unknown) => logger.error({ err: error }, 'saved search digest sweep failed'))
      .finally(() => {
        running = false
      })
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
