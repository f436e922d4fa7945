/** The parts of a service's /openapi.json (createServiceApp) that route tests read. */
export interface OpenApiOperation {
  tags?: string[]
  summary?: string
  security?: unknown[]
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>
  /** Every public route the service registered (service-kit's openapi plugin). */
  'x-routes': Array<{ method: string; url: string }>
}

/** A public route: lower-case method, OpenAPI path (`{id}`), success status. */
export type PublicRoute = [method: string, path: string, success: number]

/**
 * What the document gets wrong about a service's public routes, as readable lines (a test
 * expects none): each route documented with the service's tag, a summary, the expected
 * security, its success answer (with a body schema unless 204) and 401 where a token is
 * required; and exactly these routes registered, none missing from the list.
 */
export function documentationProblems(
  document: OpenApiDocument,
  routes: PublicRoute[],
  expected: { tag: string; security: unknown[] },
): string[] {
  const problems: string[] = []
  for (const [method, path, success] of routes) {
    const name = `${method.toUpperCase()} ${path}`
    const operation = document.paths[path]?.[method]
    if (!operation) {
      problems.push(`${name}: not documented`)
      continue
    }
    if (JSON.stringify(operation.tags) !== JSON.stringify([expected.tag]))
      problems.push(`${name}: tags ${JSON.stringify(operation.tags)}`)
    if (typeof operation.summary !== 'string') problems.push(`${name}: no summary`)
    if (JSON.stringify(operation.security) !== JSON.stringify(expected.security))
      problems.push(`${name}: security ${JSON.stringify(operation.security)}`)
    const answer = operation.responses[String(success)]
    const schema = answer?.content?.['application/json']?.schema as { type?: unknown } | undefined
    if (!answer) problems.push(`${name}: no ${success} answer`)
    else if (success !== 204 && typeof schema?.type !== 'string')
      problems.push(`${name}: the ${success} answer has no body schema`)
    if (expected.security.length > 0 && !operation.responses['401'])
      problems.push(`${name}: no 401`)
  }
  const listed = new Set(routes.map(([method, path]) => `${method} ${path}`))
  for (const { method, url } of document['x-routes']) {
    const route = `${method.toLowerCase()} ${url.replace(/:(\w+)/g, '{$1}')}`
    if (!listed.has(route)) problems.push(`${route}: registered but not in the list`)
  }
  return problems
}
