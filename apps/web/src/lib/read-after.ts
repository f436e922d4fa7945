/**
 * Read-your-writes for the app's own writes (docs/consistency.md): a write's answer names
 * what it changed (`X-Read-After`), and the app sends those positions back with its next
 * reads of the same service for a few seconds. Whichever instance answers the read then shows
 * the write, even one that has not learned of it from the others yet.
 *
 * The gateway does the same for every caller on its own; the app's copy keeps it true when
 * its reads go through another gateway instance than its write (several behind a balancer).
 */
export const READ_AFTER_HEADER = 'x-read-after'
/** As long as one instance may lag another (tens of ms; seconds while Kafka is away). */
export const READ_AFTER_WINDOW_MS = 15_000
const MAX_POSITIONS = 64

/** The service a path belongs to, as the gateway routes it (people owns two prefixes). */
function serviceOf(path: string): string {
  const prefix = /^\/api\/[\w-]+/.exec(path)?.[0] ?? path
  return prefix === '/api/users' ? '/api/people' : prefix
}

const pathOf = (url: string) => (url.startsWith('/') ? url : new URL(url).pathname).split('?')[0]!

const remembered = new Map<string, Array<{ position: string; at: number }>>()

/** A write to `url` answered these positions (the header's value, comma separated). */
export function rememberWrite(url: string, header: string | null, now = Date.now()): void {
  if (!header) return
  const service = serviceOf(pathOf(url))
  const fresh = [
    ...new Set(
      header
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '' && part.length <= 128),
    ),
  ]
  const kept = (remembered.get(service) ?? []).filter((entry) => !fresh.includes(entry.position))
  for (const position of fresh) kept.push({ position, at: now })
  remembered.set(service, kept.slice(-MAX_POSITIONS))
}

/** The positions a read of `url` should carry, or null when there are none (any more). */
export function positionsFor(url: string, now = Date.now()): string | null {
  const service = serviceOf(pathOf(url))
  const entries = remembered.get(service)
  if (!entries) return null
  const live = entries.filter((entry) => now - entry.at < READ_AFTER_WINDOW_MS)
  if (live.length === 0) {
    remembered.delete(service)
    return null
  }
  remembered.set(service, live)
  // Newest first: a service reads a bounded number of them, and the newest matter most.
  return live
    .map((entry) => entry.position)
    .reverse()
    .join(', ')
}

/** Forgets everything (sign-out, tests). */
export function forgetWrites(): void {
  remembered.clear()
}
