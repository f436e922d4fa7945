import { PROXY_ROUTES, type UpstreamName } from '../upstreams'

/** The parts of an OpenAPI 3.1 document the merge reads and writes. */
export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; description?: string; [key: string]: unknown }
  paths?: Record<string, Record<string, unknown>>
  components?: {
    schemas?: Record<string, unknown>
    securitySchemes?: Record<string, unknown>
    [key: string]: unknown
  }
  tags?: Array<{ name: string; description?: string }>
  [key: string]: unknown
}

export interface ServiceDocument {
  /** 'gateway' for the gateway's own routes. */
  source: UpstreamName | 'gateway'
  document: OpenApiDocument
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/**
 * One document for the whole public API, from each service's own (generated from its route
 * schemas). A service's path is kept only where the gateway really routes it to that
 * service (PROXY_ROUTES, prefix and methods), so the document never promises a path the
 * gateway answers with 404; the gateway's own routes are kept under /api. Named schemas are
 * prefixed with their service so two services' `def-0` never collide, and every $ref follows.
 */
export function mergeOpenApi(
  services: ServiceDocument[],
  info: OpenApiDocument['info'],
): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {}
  const schemas: Record<string, unknown> = {}
  let securitySchemes: Record<string, unknown> = {}
  const tags = new Map<string, { name: string; description?: string }>()
  const undocumented: string[] = []

  for (const { source, document } of services) {
    // Every route the service registered (service-kit's x-routes) that the gateway routes to
    // it must be in its document with a response schema; the merged document names any that
    // is not (a route without schemas still appears, with swagger's "Default Response").
    for (const route of (document['x-routes'] as Array<{ method: string; url: string }>) ?? []) {
      const path = route.url.replace(/:(\w+)/g, '{$1}')
      const method = route.method.toLowerCase()
      if (path.includes('*') || !isRouted(source, path, method)) continue
      if (!describesItsAnswers(document.paths?.[path]?.[method])) {
        undocumented.push(`${route.method} ${path}`)
      }
    }
    const rename = (name: string) => `${source}.${name}`
    const rewritten = rewriteRefs(document, rename) as OpenApiDocument
    for (const [name, schema] of Object.entries(rewritten.components?.schemas ?? {})) {
      schemas[rename(name)] = schema
    }
    securitySchemes = { ...securitySchemes, ...(rewritten.components?.securitySchemes ?? {}) }
    for (const tag of rewritten.tags ?? []) tags.set(tag.name, tag)

    for (const [path, item] of Object.entries(rewritten.paths ?? {})) {
      const operations = Object.entries(item).filter(
        ([method]) => HTTP_METHODS.includes(method) && isRouted(source, path, method),
      )
      if (operations.length === 0) continue
      const merged = (paths[path] ??= {})
      for (const [method, operation] of operations) {
        merged[method] = withTag(operation, source)
        if (!(operation as { tags?: string[] }).tags?.length && !tags.has(source)) {
          tags.set(source, { name: source })
        }
      }
      for (const [key, value] of Object.entries(item)) {
        if (!HTTP_METHODS.includes(key)) merged[key] = value
      }
    }
  }

  return {
    openapi: '3.1.0',
    info: undocumented.length > 0 ? { ...info, 'x-undocumented': undocumented.sort() } : info,
    servers: [{ url: '/', description: 'This gateway' }],
    tags: [...tags.values()].sort((a, b) => a.name.localeCompare(b.name)),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: { securitySchemes, schemas },
  }
}

/** Whether the gateway sends `method path` to `source` (the OpenAPI path form, `{id}`). */
export function isRouted(source: UpstreamName | 'gateway', path: string, method: string): boolean {
  if (source === 'gateway') return path.startsWith('/api/') && !path.startsWith('/api/docs')
  return PROXY_ROUTES.some(
    (route) =>
      route.upstream === source &&
      !route.websocket &&
      (path === route.prefix || path.startsWith(`${route.prefix}/`)) &&
      (!route.methods || route.methods.includes(method.toUpperCase())),
  )
}

function describesItsAnswers(operation: unknown): boolean {
  const responses = (operation as { responses?: Record<string, { content?: unknown }> })?.responses
  return Object.entries(responses ?? {}).some(
    ([status, response]) => status === '204' || response.content !== undefined,
  )
}

function withTag(operation: unknown, source: string): unknown {
  const op = operation as { tags?: string[] }
  return op.tags && op.tags.length > 0 ? op : { ...op, tags: [source] }
}

function rewriteRefs(value: unknown, rename: (name: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rename))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof item === 'string' && item.startsWith('#/components/schemas/')
        ? `#/components/schemas/${rename(item.slice('#/components/schemas/'.length))}`
        : rewriteRefs(item, rename)
  }
  return out
}
