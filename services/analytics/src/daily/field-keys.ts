/**
 * Routes, error messages and help pages become field names of the day document
 * (`routes.<key>`), so they are escaped: MongoDB refuses a '.' inside a field name in an
 * update path (it would mean a sub-document) and a name starting with '$' (an operator).
 * '%' is escaped too so that decoding is exact; NUL is not allowed in BSON keys.
 */
export function escapeKey(text: string): string {
  // '%' first, so the escapes added after it are not escaped again.
  return text
    .replaceAll('%', '%25')
    .replaceAll('.', '%2E')
    .replaceAll('$', '%24')
    .replaceAll(String.fromCharCode(0), '%00')
}

export function unescapeKey(key: string): string {
  return key.replace(/%(25|2E|24|00)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** Longest route kept; the gateway already refuses paths over 512 characters. */
export const ROUTE_MAX = 200
/** Longest error message kept: enough to recognize an error, short enough to bound a day. */
export const MESSAGE_MAX = 160

const ID_SEGMENT =
  /^(?:[0-9a-f]{24}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)$/i

/**
 * The route a page view counts for: ids in the path become `:id`, so `/posts/<id>` of every
 * post is one route, not one row per post (and an id never becomes a field name). Query
 * strings never arrive (the web app sends the pathname only); a trailing slash is dropped.
 */
export function normalizeRoute(path: string): string {
  const segments = path.split('/').map((segment) => (ID_SEGMENT.test(segment) ? ':id' : segment))
  const route = segments.join('/').replace(/\/+$/, '') || '/'
  return route.length > ROUTE_MAX ? `${route.slice(0, ROUTE_MAX)}…` : route
}

/**
 * The error message an error is counted under: numbers, ids and addresses replaced, so
 * "Cannot read id 64f… of undefined" of every id is one row; spaces collapsed; cut short.
 */
export function normalizeMessage(message: unknown): string {
  const text = typeof message === 'string' ? message : ''
  const normalized = text
    .replace(/https?:\/\/\S+/g, '<url>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b[0-9a-f]{24}\b/gi, '<id>')
    .replace(/\d+/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim()
  if (!normalized) return '(no message)'
  return normalized.length > MESSAGE_MAX ? `${normalized.slice(0, MESSAGE_MAX)}…` : normalized
}
