import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyRequest } from 'fastify'
import { REFRESH_COOKIE, REFRESH_COOKIE_UPSTREAM, type UpstreamName } from '../upstreams'

/** What the header helpers read; structural, so reply-from's request type fits as well. */
export type ForwardingRequest = Pick<
  FastifyRequest,
  'id' | 'ip' | 'ips' | 'protocol' | 'host' | 'headers'
>

/**
 * Header families that could carry an identity or an internal signal. Services trust only
 * the verified access token; still, nothing from the internet may arrive looking as if the
 * gateway or another service had vouched for it.
 */
const IDENTITY_PREFIXES = [
  'x-user',
  'x-auth',
  'x-forwarded-user',
  'x-roles',
  'x-caller',
  'x-internal-',
]

/**
 * Headers the gateway sets itself: a client's values are dropped, never merged, so the
 * upstream sees only what the gateway observed.
 */
const GATEWAY_OWNED_PREFIXES = ['x-forwarded-']
const GATEWAY_OWNED = new Set(['forwarded', 'x-real-ip', 'x-request-id'])

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) and `expect`: undici refuses to send `expect`,
 * `keep-alive` and `upgrade`, so forwarding them would turn a valid request into a 500.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'expect',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

export function isIdentityHeader(name: string): boolean {
  const lower = name.toLowerCase()
  return IDENTITY_PREFIXES.some((prefix) => lower.startsWith(prefix))
}

// isDropped looks at the prefixes only for names starting with `x-`.
if (![...IDENTITY_PREFIXES, ...GATEWAY_OWNED_PREFIXES].every((prefix) => prefix.startsWith('x-')))
  throw new Error('forwarded headers: every dropped prefix must start with x-')

/** `name` lower-cased. Every prefix of the two families starts with `x-`, most names do not. */
function isDropped(name: string): boolean {
  if (HOP_BY_HOP.has(name) || GATEWAY_OWNED.has(name)) return true
  if (name.charCodeAt(0) !== 120 /* x */ || name.charCodeAt(1) !== 45 /* - */) return false
  for (const prefix of IDENTITY_PREFIXES) if (name.startsWith(prefix)) return true
  for (const prefix of GATEWAY_OWNED_PREFIXES) if (name.startsWith(prefix)) return true
  return false
}

/**
 * X-Forwarded-For as far as it can be believed: with no trusted proxy only the peer address;
 * behind trusted proxies the chain they reported, without whatever the client wrote before it.
 */
export function forwardedFor(request: ForwardingRequest): string {
  const chain = request.ips
  return chain && chain.length > 0 ? [...chain].reverse().join(', ') : request.ip
}

/**
 * A Cookie header without the cookie `name` (every occurrence), other cookies untouched and
 * in order; undefined when nothing is left.
 */
export function withoutCookie(header: string | string[], name: string): string | undefined {
  const kept = (Array.isArray(header) ? header : [header])
    .flatMap((line) => line.split(';'))
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && (pair.split('=', 1)[0] ?? '').trim() !== name)
  return kept.length > 0 ? kept.join('; ') : undefined
}

/**
 * Headers for the upstream request, from `headers` (reply-from's copy of the browser's, with
 * host already pointing at the upstream; or the browser's own for a WebSocket handshake).
 */
export function upstreamRequestHeaders(
  request: ForwardingRequest,
  headers: IncomingHttpHeaders,
  upstream: UpstreamName,
): IncomingHttpHeaders {
  const result: IncomingHttpHeaders = {}
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined) continue
    const lower = name.toLowerCase()
    if (isDropped(lower)) continue
    if (lower === 'cookie' && upstream !== REFRESH_COOKIE_UPSTREAM) {
      // Defence in depth: a service that logs or echoes headers, or is compromised, must not
      // get the one credential that mints new access tokens.
      const rest = withoutCookie(value, REFRESH_COOKIE)
      if (rest !== undefined) result[name] = rest
      continue
    }
    result[name] = value
  }
  result['x-request-id'] = request.id
  result['x-forwarded-for'] = forwardedFor(request)
  result['x-forwarded-proto'] = request.protocol
  if (request.host) result['x-forwarded-host'] = request.host
  return result
}
