import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { UpstreamName } from '../upstreams'
import { mergeOpenApi, type OpenApiDocument, type ServiceDocument } from './merge-openapi'

export interface ApiDocsOptions {
  /** Each service's instances; the document is asked of the first that answers. */
  upstreams: Partial<Record<UpstreamName, string[]>>
  /** How long a complete merged document is served before the services are asked again. */
  cacheMs?: number
  /** Per service; a service that does not answer in time is left out of this answer. */
  fetchTimeoutMs?: number
}

export const API_DOCS_PATH = '/api/docs'
export const OPENAPI_PATH = '/api/docs/openapi.json'

const INFO: OpenApiDocument['info'] = {
  title: 'Marketplace API',
  version: '1.0.0',
  description:
    'The public HTTP API of the marketplace for short jobs and people for hire, as the gateway ' +
    'serves it. Errors are `{ message, code }`. Authenticated routes take the access token as ' +
    '`Authorization: Bearer <token>`; the refresh and logout calls use the httpOnly ' +
    '`refresh_token` cookie with the `X-XSRF-TOKEN` header echoing the `XSRF-TOKEN` cookie.',
}

/**
 * GET /api/docs/openapi.json, the whole API in one OpenAPI 3.1 document merged from every
 * service's (each generated from its route schemas and served at its own /openapi.json), and
 * GET /api/docs, a readable reference (Scalar, served from the package, loaded only there).
 * Fetched on demand and cached: a service deployed with new routes shows up within `cacheMs`.
 * A service that does not answer is named in `info.x-unavailable` and the answer is not cached.
 */
export async function apiDocsRoutes(app: FastifyInstance, options: ApiDocsOptions) {
  const cacheMs = options.cacheMs ?? 60_000
  const fetchTimeoutMs = options.fetchTimeoutMs ?? 3000
  let cached: { document: OpenApiDocument; until: number } | null = null

  async function serviceDocuments(): Promise<{ documents: ServiceDocument[]; missing: string[] }> {
    const entries = Object.entries(options.upstreams) as Array<[UpstreamName, string[]]>
    const results = await Promise.all(
      entries.map(async ([name, instances]): Promise<ServiceDocument | UpstreamName> => {
        for (const url of instances) {
          try {
            const response = await fetch(`${url}/openapi.json`, {
              signal: AbortSignal.timeout(fetchTimeoutMs),
            })
            if (!response.ok) throw new Error(`status ${response.status}`)
            return { source: name, document: (await response.json()) as OpenApiDocument }
          } catch (error) {
            app.log.warn(
              { err: error, upstream: name, instance: url },
              'OpenAPI document not available',
            )
          }
        }
        return name
      }),
    )
    const own = app.swagger() as unknown as OpenApiDocument
    return {
      documents: [
        { source: 'gateway', document: own },
        ...results.filter((result): result is ServiceDocument => typeof result !== 'string'),
      ],
      missing: results.filter((result): result is UpstreamName => typeof result === 'string'),
    }
  }

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache')
    if (cached && cached.until > Date.now()) return cached.document
    const { documents, missing } = await serviceDocuments()
    const document = mergeOpenApi(
      documents,
      missing.length > 0 ? { ...INFO, 'x-unavailable': missing } : INFO,
    )
    if (missing.length === 0) cached = { document, until: Date.now() + cacheMs }
    return document
  })

  // ESM-only package: Node 24 loads it from CommonJS; jest does with --experimental-vm-modules
  // (the gateway's test script), through Node's own require(esm).
  const { default: scalar } = await import('@scalar/fastify-api-reference')
  await app.register(async (docs) => {
    docs.addHook('onSend', allowOwnInlineScripts)
    await docs.register(scalar, {
      routePrefix: API_DOCS_PATH,
      logLevel: 'warn',
      configuration: {
        url: OPENAPI_PATH,
        pageTitle: 'Marketplace API',
        // Same-origin only (the gateway's content security policy): no web fonts, no CDN.
        withDefaultFonts: false,
        hideClientButton: true,
      },
    })
  })
}

/**
 * The reference page starts the viewer with one inline script, which the gateway's policy
 * (`script-src 'self'`) refuses. On this page only, the policy also allows exactly the inline
 * scripts the page carries, by their SHA-256 (CSP level 2 hashes): nothing injected elsewhere
 * could run, and the rest of the site keeps its policy unchanged.
 */
async function allowOwnInlineScripts(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
) {
  const type = String(reply.getHeader('content-type') ?? '')
  const policy = reply.getHeader(CSP)
  if (typeof payload !== 'string' || !type.startsWith('text/html') || typeof policy !== 'string') {
    return payload
  }
  const hashes = [...payload.matchAll(INLINE_SCRIPT)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  )
  if (hashes.length > 0) {
    reply.header(CSP, policy.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`))
  }
  return payload
}

const CSP = 'content-security-policy'
/** A <script> element without src, and its text. */
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g
