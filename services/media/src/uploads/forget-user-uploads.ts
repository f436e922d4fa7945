import { UPLOAD_KEY_PREFIXES } from '@marketplace/contracts/marketplace'
import { minuteOf, nextMinute } from './upload-documents'
import type { UploadsRepository } from './uploads-repository'

/**
 * After a purge, the upload bookkeeping names the user no more: the slots still waiting for the
 * sweep (at most its 24 hours and one interval of minutes, one document by `_id` each) lose
 * the user's object keys and quota counters. The objects themselves go by prefix
 * (user-deleted.handler.ts). Idempotent, and safe beside a sweep of the same minute: both only
 * delete and pull.
 */
export function createForgetUserUploads(deps: {
  uploads: Pick<UploadsRepository, 'sweptThrough' | 'findMinute' | 'forgetSlotsOf'>
}) {
  return async function forgetUserUploads(userId: string, now = new Date()): Promise<number> {
    const through = await deps.uploads.sweptThrough()
    if (!through) return 0
    const keyPrefixes = Object.values(UPLOAD_KEY_PREFIXES).map((root) => `${root}${userId}/`)
    const quotaPrefix = `${userId}:`
    const last = minuteOf(now)
    let forgotten = 0
    for (let minute = nextMinute(through); minute <= last; minute = nextMinute(minute)) {
      const slots = await deps.uploads.findMinute(minute)
      if (!slots) continue
      const keys = slots.keys.filter((key) => keyPrefixes.some((prefix) => key.startsWith(prefix)))
      const quotaIds = slots.quotaIds.filter((id) => id.startsWith(quotaPrefix))
      if (keys.length === 0 && quotaIds.length === 0) continue
      await deps.uploads.forgetSlotsOf(slots, { keys, quotaIds })
      forgotten += keys.length
    }
    return forgotten
  }
}

export type ForgetUserUploads = ReturnType<typeof createForgetUserUploads>
