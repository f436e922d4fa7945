import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import rateLimit from '@fastify/rate-limit'
import { TooManyRequestsError } from '@marketplace/service-kit'

export interface RateLimitOptions {
  max: number
  windowMs: number
}

// Probes and scrapes come from the platform, often many per minute from one address.
const EXEMPT_PATHS = new Set(['/healthz', '/readyz', '/metrics'])

/**
 * One bucket per client IP for every route registered after this plugin (proxied API calls,
 * Socket.IO handshakes and polls, the SPA). The IP is `request.ip`, so it is exactly as
 * trustworthy as the app's `trustProxy` setting: with it off, X-Forwarded-For is ignored.
 * Services keep their own, tighter limits on login, sign-up and codes.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: RateLimitOptions) => {
    await app.register(rateLimit, {
      global: true,
      max: options.max,
      timeWindow: options.windowMs,
      allowList: (request) => EXEMPT_PATHS.has(pathOf(request.url)),
      errorResponseBuilder: (_request, context) =>
        new TooManyRequestsError(
          `Too many requests, retry in ${context.after}`,
          Math.ceil(context.ttl / 1000),
        ),
    })
  },
  { name: 'rate-limit' },
)

/** The path of a request URL, without the query (no array per request, as `split` makes). */
function pathOf(url: string): string {
  const queryStart = url.indexOf('?')
  return queryStart === -1 ? url : url.slice(0, queryStart)
}
