import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet from 'helmet'

export interface SecurityHeadersOptions {
  /** Pictures are read from here: `<bucket url>/userImages/...`, `/jobImages/...`. */
  publicBucketUrl: string
  /** Pre-signed uploads are PUT here. */
  s3Endpoint: string
}

// A Host header is the only part of the policy taken from the request; anything else (a ';'
// above all) would let a request rewrite its own policy or make helmet fail.
const SAFE_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/**
 * Socket.IO connects to the page's own host with ws:/wss:. CSP Level 3 lets 'self' cover
 * that, but older engines do not, and a bare `ws: wss:` would allow any host.
 */
function sameHostWebSockets(request: IncomingMessage): string {
  const host = request.headers.host
  return host && SAFE_HOST.test(host) ? `ws://${host} wss://${host}` : ''
}

/** CSP source matching a path: without the trailing slash only that exact URL would match. */
function bucketSource(publicBucketUrl: string): string {
  const url = new URL(publicBucketUrl)
  const pathname = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`
  return `${url.origin}${pathname}`
}

/**
 * helmet's headers with a policy for the built Vite React SPA: scripts and styles from the
 * gateway only (Vite emits no inline script; 'unsafe-inline' styles because React and
 * component libraries set style attributes and inject <style>), pictures from the public
 * bucket plus blob: for the preview before an upload, and no framing at all.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
    // helmet itself, built once. @fastify/helmet builds a new helmet middleware for every
    // request (to allow per-route options we do not use), which was a tenth of the
    // gateway's CPU per proxied request (docs/benchmarks.md).
    const setSecurityHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'self'"],
          scriptSrc: ["'self'"],
          scriptSrcAttr: ["'none'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', bucketSource(options.publicBucketUrl)],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", sameHostWebSockets, new URL(options.s3Endpoint).origin],
          objectSrc: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          // Not upgrade-insecure-requests: on a plain-http laptop stack it would send picture
          // and upload requests to an https port that does not exist. HSTS covers production.
        },
      },
      xFrameOptions: { action: 'deny' },
      // Pictures come from another origin without CORP headers; requiring them would break them.
      crossOriginEmbedderPolicy: false,
    })
    app.addHook('onRequest', (request, reply, done) => {
      setSecurityHeaders(request.raw, reply.raw, (error?: unknown) =>
        done(error instanceof Error ? error : undefined),
      )
    })
  },
  { name: 'security-headers' },
)
