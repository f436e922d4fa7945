import type { IncomingMessage, ServerResponse } from 'node:http'
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

/** A Host no policy may contain (see SAFE_HOST): the policy then names no WebSocket host. */
const NO_HOST = '\u0000'
/** A safe Host used once at start to find where the request's host goes in the policy. */
const PLACEHOLDER_HOST = 'gateway-host.invalid'

/**
 * The headers helmet sets for a request with this Host, recorded from a stand-in response
 * (helmet only calls setHeader and removeHeader), names lower-cased.
 */
function helmetHeaders(
  setSecurityHeaders: ReturnType<typeof helmet>,
  host: string,
): Map<string, string> {
  const headers = new Map<string, string>()
  const request = { headers: { host } } as unknown as IncomingMessage
  const response = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: () => {},
  } as unknown as ServerResponse
  setSecurityHeaders(request, response, (error?: unknown) => {
    if (error) throw error
  })
  return headers
}

/**
 * helmet's headers with a policy for the built Vite React SPA: scripts and styles from the
 * gateway only (Vite emits no inline script; 'unsafe-inline' styles because React and
 * component libraries set style attributes and inject <style>), pictures from the public
 * bucket plus blob: for the preview before an upload, and no framing at all.
 *
 * helmet runs at start only. Its headers are the same for every request except one part of
 * the policy, `ws://<host> wss://<host>`, so they are recorded once (for a request with no
 * usable Host, and with a placeholder Host to find where the host goes) and each request
 * gets the recorded values, set on the response directly (below). Running helmet's middleware
 * per request re-validated the whole policy every time: a tenth of the gateway's CPU per
 * proxied request before it was built once, 5 % after (docs/gateway-performance.md).
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
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

    const CSP = 'content-security-policy'
    const withoutHost = helmetHeaders(setSecurityHeaders, NO_HOST)
    const policyWithoutHost = withoutHost.get(CSP) ?? ''
    const [policyBefore, policyAfter, ...rest] = (
      helmetHeaders(setSecurityHeaders, PLACEHOLDER_HOST).get(CSP) ?? ''
    ).split(sameHostWebSockets({ headers: { host: PLACEHOLDER_HOST } } as IncomingMessage))
    if (policyBefore === undefined || policyAfter === undefined || rest.length > 0)
      throw new Error('security headers: the host part of the policy was not found')
    withoutHost.delete(CSP)
    const names = [...withoutHost.keys()]
    const values = [...withoutHost.values()]

    // The policy of the last few Hosts seen: a gateway answers under one or two names, so the
    // policy string is built (and the Host checked) once per name, not once per request. A
    // Host not seen before is checked with SAFE_HOST as always; the map is emptied when full,
    // so a client sending many Hosts costs it nothing but the check.
    const policies = new Map<string, string>()
    const policyFor = (host: string | undefined): string => {
      if (!host) return policyWithoutHost
      let policy = policies.get(host)
      if (policy === undefined) {
        policy = SAFE_HOST.test(host)
          ? `${policyBefore}ws://${host} wss://${host}${policyAfter}`
          : policyWithoutHost
        if (policies.size >= 64) policies.clear()
        policies.set(host, policy)
      }
      return policy
    }

    // Straight onto the response (Node's own header list), not through Fastify's: Fastify
    // sends a stream's headers (every proxied answer) with one setHeader each from its list,
    // so a header put there was stored twice and copied once more. Fastify's getHeader reads
    // Node's list too (a page's hook adding its script hashes to the policy still finds it),
    // and a header Fastify sets for the same name (reply.header) replaces this one when sent.
    app.addHook('onRequest', (request, reply, done) => {
      const response = reply.raw
      for (let i = 0; i < names.length; i += 1) response.setHeader(names[i]!, values[i]!)
      response.setHeader(CSP, policyFor(request.headers.host))
      done()
    })
  },
  { name: 'security-headers' },
)
