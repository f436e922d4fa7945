/**
 * The proxy's path safety check: which path of a request under a proxied prefix may be sent to
 * the service. The gateway forwards the path as the browser sent it (each prefix is the
 * service's own), so a path that would leave the prefix once decoded or resolved (`..`,
 * `%2e%2e`, `..\`, an absolute URL, a control character) is refused with 400 before anything
 * is sent. @fastify/reply-from checks `..` again when it builds the URL.
 *
 * This replaces @fastify/http-proxy's per-request `validateDestination` and
 * `resolveDestination`, which stripped, decoded and split every path and parsed three URLs
 * (with its re-parse and re-encoding of the query string, about 5 % of the gateway's CPU per
 * proxied request: docs/gateway-performance.md). A path made only of characters that need no
 * decoding (no `%`, no `\`, no control character or space), under the prefix and with no `..`
 * segment, cannot leave the prefix, so it is passed on after two regular expressions; any other
 * path gets http-proxy's own checks, restated in `fullCheck` below.
 */

/** Characters a path may use as they are (RFC 3986 pchar without `%`), and `/`. */
const PLAIN_PATH = /^\/[\w\-.~!$&'()*+,;=:@/]*$/
/** A `..` segment. */
const DOT_DOT_SEGMENT = /(?:^|\/)\.\.(?:\/|$)/
/** A scheme: `http:`, `javascript:`... (http-proxy's `absoluteUrlPattern`). */
const ABSOLUTE_URL = /^[a-zA-Z][a-zA-Z\d+.-]*:/

export class UnsafePathError extends Error {
  readonly statusCode = 400
  constructor() {
    // http-proxy's words, so the answer is the one it gave.
    super('source/request contain invalid characters')
  }
}

/** The path of `url` (its query left out) when it is safe to forward under `prefix`; else throws. */
export function proxiedPath(url: string, prefix: string, upstream: string): string {
  const queryStart = url.indexOf('?')
  const path = queryStart === -1 ? url : url.slice(0, queryStart)
  if (
    PLAIN_PATH.test(path) &&
    path.charCodeAt(1) !== 47 /* '/': '//host' is a network path */ &&
    (path === prefix || path.startsWith(`${prefix}/`)) &&
    !DOT_DOT_SEGMENT.test(path)
  ) {
    return path
  }
  fullCheck(path, prefix, upstream)
  return path
}

/**
 * @fastify/http-proxy 11.6's `validateDestination` and `resolveDestination` (MIT), for any
 * path the plain check above does not pass: control characters dropped and `\` read as `/`
 * as URL parsers do, no scheme or `//`, decodable, no `..` segment once decoded, and resolved
 * against the upstream, still on its origin and under the prefix.
 */
function fullCheck(dest: string, prefix: string, upstream: string): void {
  const normalized = dest
    .replaceAll('\t', '')
    .replaceAll('\n', '')
    .replaceAll('\r', '')
    .replaceAll('\0', '')
    .trimStart()
    .replaceAll('\\', '/')
  if (ABSOLUTE_URL.test(normalized) || normalized.startsWith('//')) throw new UnsafePathError()
  let decoded: string
  try {
    decoded = decodeURIComponent(normalized)
  } catch {
    throw new UnsafePathError()
  }
  if (decoded.replaceAll('\\', '/').split('/').includes('..')) throw new UnsafePathError()

  const base = new URL(upstream)
  const target = new URL(dest, base)
  const prefixUrl = new URL(prefix, base)
  const boundary = prefixUrl.pathname.endsWith('/') ? prefixUrl.pathname : `${prefixUrl.pathname}/`
  const withinPrefix =
    target.pathname === prefixUrl.pathname || target.pathname.startsWith(boundary)
  if (target.origin !== base.origin || prefixUrl.origin !== base.origin || !withinPrefix) {
    throw new UnsafePathError()
  }
}
