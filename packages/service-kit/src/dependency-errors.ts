/** What a client is told to wait before it tries again while a server behind us is away. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5

/**
 * The operating system's answers when a connection to another server fails: refused (nothing
 * listens), reset or closed under a write (the server died or a proxy cut it), timed out, or
 * no route to it. They come from any client library that opens sockets (the S3 client, the
 * mailer, the database driver writing to a socket the server had already closed).
 */
const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
])

/**
 * Whether an error says a server this service depends on (object storage, mail, the
 * database) could not be reached at the socket level, rather than that the request or the code
 * was wrong. Such a request answers 503 with Retry-After, as a database outage does: the
 * client may try again in a moment, and nothing about it is a bug to page anyone for. Follows
 * `cause` chains and AggregateErrors (Node's connection attempts to several addresses).
 */
export function isDependencyUnreachable(error: unknown): boolean {
  const pending: unknown[] = [error]
  for (let seen = 0; pending.length > 0 && seen < 10; seen += 1) {
    const current = pending.shift()
    if (!current || typeof current !== 'object') continue
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && CONNECTION_FAILURES.has(code)) return true
    const { cause, errors } = current as { cause?: unknown; errors?: unknown }
    if (cause) pending.push(cause)
    if (Array.isArray(errors)) pending.push(...errors)
  }
  return false
}
