import type { AnalyticsEvent } from '@marketplace/contracts/marketplace'
import { flushAnalytics, startAnalytics } from '@/lib/analytics'

/**
 * Starts the reporter with a transport that keeps the events in memory, so a test reads
 * what would have been sent without a request (its fetch stub stays for the page's own calls).
 */
export function recordAnalytics() {
  const sent: AnalyticsEvent[] = []
  const stop = startAnalytics((batch) => sent.push(...batch.events))
  return {
    /** Everything tracked so far (queued events are flushed first). */
    events(): AnalyticsEvent[] {
      flushAnalytics()
      return sent
    },
    stop,
  }
}
