import type { FastifyRequest } from 'fastify'

/**
 * True when the request's Origin is the site itself: the scheme and host the browser used
 * (behind the gateway, its X-Forwarded-Proto and -Host, believed through TRUST_PROXY), or
 * one of the configured extra origins. A missing Origin is refused: every browser sends it
 * on a POST from script.
 */
export function isSameOrigin(request: FastifyRequest, extraOrigins: readonly string[]): boolean {
  const origin = request.headers.origin
  if (typeof origin !== 'string' || origin === 'null') return false
  return origin === `${request.protocol}://${request.host}` || extraOrigins.includes(origin)
}
