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
// The web app's built files: named by their content's hash, cached for a year by browsers,
// read from the build's folder, and about forty of them on a first visit. Counted, they
// spent the address's budget on what costs the services nothing: ten fresh visits a minute
// from one address (an office or a phone carrier behind one public address, a screenshot
// run) and the next visit's API calls were refused. The limit guards the services.
const EXEMPT_PREFIX = '/assets/'

/**
 * One bucket per client IP for every route registered after this plugin (proxied API calls,
 * Socket.IO handshakes and polls, the SPA's pages), but not the web app's built files. The IP is `request.ip`, so it is exactly as
 * trustworthy as the app's `trustProxy` setting: with it off, X-Forwarded-For is ignored.
 * Services keep their own, tighter limits on login, sign-up and codes.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: RateLimitOptions) => {
    await app.register(rateLimit, {
      global: true,
      max: options.max,
      timeWindow: options.windowMs,
      allowList: (request) => {
        const path = pathOf(request.url)
        return EXEMPT_PATHS.has(path) || path.startsWith(EXEMPT_PREFIX)
      },
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
