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

/** Longest error message kept: enough to recognize an error, short enough to bound a day. */
export const MESSAGE_MAX = 160

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
