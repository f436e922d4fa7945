import type { FastifyBaseLogger } from 'fastify'
import { allVariantKeys } from '@marketplace/contracts/marketplace'
import { stagingKeyOf } from '../storage/staging-keys'
import { endOfMinute, nextMinute } from './upload-documents'
import type { UploadsRepository } from './uploads-repository'

export interface SweepOutcome {
  /** Minutes of slots dealt with. */
  minutes: number
  /** Objects of slots no post or profile named, deleted. */
  removed: number
  /** Slots that were attached, kept. */
  kept: number
}

/**
 * Removes the pictures nobody attached. Slots are listed per minute of their making; the
 * sweep walks the minutes from its cursor up to `maxAgeMs` ago, one document by `_id` each,
 * so its cost follows the uploads of the minutes it sweeps, never the size of a collection.
 * Every step is idempotent: several instances may sweep at once, and one that stops half
 * way is finished by the next run (the cursor moves only after a minute is done).
 */
export function createUploadSweep(deps: {
  uploads: Pick<
    UploadsRepository,
    'sweptThrough' | 'findMinute' | 'findUpload' | 'forgetMinute' | 'advanceCursor'
  >
  deleteObjects(keys: readonly string[]): Promise<void>
  maxAgeMs: number
  logger: FastifyBaseLogger
}) {
  async function sweepMinute(minute: string): Promise<{ removed: number; kept: number }> {
    const slots = await deps.uploads.findMinute(minute)
    if (!slots) return { removed: 0, kept: 0 }
    const unattached: string[] = []
    for (const key of slots.keys) {
      const upload = await deps.uploads.findUpload(key)
      // No record: an earlier run deleted the object and stopped before the minute's end.
      if (upload && !upload.attachedAt) unattached.push(key)
    }
    // Objects first: a crash before the records go leaves them for the next run to redo.
    // The sizes made at /api/upload/complete go with their original.
    // Every slot's staging object goes too, attached or not: a PUT repeated after the check
    // (the pre-signed address lives on for minutes) left bytes there that nobody serves.
    await deps.deleteObjects([
      ...unattached.flatMap((key) => [key, ...allVariantKeys(key)]),
      ...slots.keys.map(stagingKeyOf),
    ])
    await deps.uploads.forgetMinute(slots)
    return { removed: unattached.length, kept: slots.keys.length - unattached.length }
  }

  return async function sweepUnattachedUploads(now = new Date()): Promise<SweepOutcome> {
    const outcome: SweepOutcome = { minutes: 0, removed: 0, kept: 0 }
    let through = await deps.uploads.sweptThrough()
    if (!through) return outcome
    const due = now.getTime() - deps.maxAgeMs
    for (let minute = nextMinute(through); endOfMinute(minute).getTime() <= due;) {
      const { removed, kept } = await sweepMinute(minute)
      outcome.removed += removed
      outcome.kept += kept
      outcome.minutes += 1
      // Another instance moved the cursor on: it sweeps the rest.
      if (!(await deps.uploads.advanceCursor(through, minute))) break
      through = minute
      minute = nextMinute(minute)
    }
    if (outcome.removed > 0) {
      deps.logger.info(outcome, 'unattached uploads removed')
    }
    return outcome
  }
}

export type UploadSweep = ReturnType<typeof createUploadSweep>

/**
 * Runs the sweep every `intervalMs` on each instance; answers the function that stops it
 * (and waits for a run under way, which must not outlive the database connection).
 */
export function scheduleUploadSweep(
  sweep: UploadSweep,
  intervalMs: number,
  logger: FastifyBaseLogger,
): () => Promise<void> {
  let running: Promise<unknown> | null = null
  const timer = setInterval(() => {
    // A slow run (S3 or the database slow) is never overlapped by the next tick.
    if (running) return
    running = sweep()
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'upload sweep failed; it runs again later'),
      )
      .finally(() => {
        running = null
      })
  }, intervalMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
