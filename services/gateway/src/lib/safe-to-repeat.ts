/**
 * Which proxied requests a client may send again after their connection to a service broke
 * under them (the instance died while it handled them: they may or may not have had their
 * effect). docs/reliability.md, "A killed instance", lists the same routes.
 */

/** The request header that makes any write safe to repeat (service-kit's idempotency plugin). */
export const IDEMPOTENCY_KEY = 'idempotency-key'

/** Reads, and the methods HTTP itself defines as idempotent (RFC 9110, 9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])

/**
 * Writes whose second arrival changes nothing the first did not: setting a flag or a
 * value (a notification read, all of them read, the worker status), or saving a favorite,
 * which answers the entry already saved. Each pattern is matched against the path alone.
 */
const IDEMPOTENT_WRITES: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: 'PATCH', path: /^\/api\/notifications\/mark-all-read$/ },
  { method: 'PATCH', path: /^\/api\/notifications\/[^/]+\/read$/ },
  { method: 'PATCH', path: /^\/api\/users\/[^/]+\/worker-status$/ },
  { method: 'POST', path: /^\/api\/favorites\/(posts|people)$/ },
]

/** Whether the route is idempotent by itself, key or not. */
export function isNaturallyIdempotent(method: string, url: string): boolean {
  if (IDEMPOTENT_METHODS.has(method)) return true
  const path = url.split('?', 1)[0] ?? url
  return IDEMPOTENT_WRITES.some((write) => write.method === method && write.path.test(path))
}

/** Whether the request carries a key, so its service answers a repeat with the first answer. */
export function hasIdempotencyKey(headers: Record<string, unknown> | undefined): boolean {
  const value = headers?.[IDEMPOTENCY_KEY]
  return typeof value === 'string' && value.length > 0
}
