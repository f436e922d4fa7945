const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
]

// Made on first use, not when the module loads: the first Intl.RelativeTimeFormat loads the
// locale's data, a long piece of a phone's start for the bell, which shows no time until opened.
let format: Intl.RelativeTimeFormat | undefined

/** "just now", "5 minutes ago", "yesterday": how long ago an ISO time was. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso)
  if (Number.isNaN(then)) return ''
  const seconds = Math.round((now - then) / 1000)
  if (seconds < 60) return 'just now'
  for (const [unit, size] of UNITS) {
    if (seconds >= size) {
      format ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
      return format.format(-Math.floor(seconds / size), unit)
    }
  }
  return 'just now'
}
