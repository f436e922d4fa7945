const MINUTE_MS = 60 * 1000
const HOUR_MS = 60 * MINUTE_MS

/**
 * A report's age against the terms' promise of a review within 24 hours:
 * "3 h left" while there is time, "overdue by 2 h" after. Under an hour it counts minutes,
 * so a report never reads "0 h left".
 */
export function reviewDeadline(
  reviewDueAt: string,
  now: number,
): { overdue: boolean; text: string } {
  const due = Date.parse(reviewDueAt)
  const remaining = due - now
  const span = Math.abs(remaining)
  const amount =
    span < HOUR_MS
      ? `${Math.max(1, Math.floor(span / MINUTE_MS))} min`
      : `${Math.floor(span / HOUR_MS)} h`
  return remaining >= 0
    ? { overdue: false, text: `${amount} left` }
    : { overdue: true, text: `overdue by ${amount}` }
}
