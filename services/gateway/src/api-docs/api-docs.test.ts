import { createHash } from 'node:crypto'
import { AddressInfo } from 'node:net'
import { Type } from '@sinclair/typebox'
import { ErrorSchema, SECURED, errorResponses } from '@marketplace/contracts/api'
import { createServiceApp } from '@marketplace/service-kit'
import { startGateway, unusedUrl, type RunningGateway } from '../test/helpers'
import { isRouted, mergeOpenApi, type OpenApiDocument } from './merge-openapi'

/** A real service app (the kit's bootstrap, so its real /openapi.json) with two routes. */
async function startDocumentedService(name: string, prefix: string) {
  const app = await createServiceApp({ serviceName: name, logLevel: 'silent' })
  app.get(
    `${prefix}/:id`,
    {
      schema: {
        tags: [name],
        summary: `Read one ${name} thing`,
        security: SECURED,
        params: Type.Object({ id: Type.String() }),
        response: {
          200: Type.Object({ id: Type.String(), title: Type.String() }),
          ...errorResponses(401, 404),
        },
      },
    },
    async (request) => ({ id: request.params.id, title: 't' }),
  )
  // Routed, but with no schemas: the merged document must name it as undocumented.
  app.delete(`${prefix}/:id`, async () => null)
  // Not under a prefix the gateway routes to this service: must not reach the document.
  app.get('/internal/debug', { schema: { response: { 200: Type.Object({}) } } }, async () => ({}))
  await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` }
}

describe('the API description at /api/docs', () => {
  let jobs: Awaited<ReturnType<typeof startDocumentedService>>
  let people: Awaited<ReturnType<typeof startDocumentedService>>
  let gateway: RunningGateway

  beforeAll(async () => {
    jobs = await startDocumentedService('jobs', '/api/jobs')
    people = await startDocumentedService('people', '/api/people')
    gateway = await startGateway({
      JOBS_URL: jobs.url,
      PEOPLE_URL: people.url,
      AUTH_URL: await unusedUrl(),
    })
  })
  afterAll(async () => {
    await gateway.app.close()
    await jobs.app.close()
    await people.app.close()
  })

  it('merges every reachable service document, keeping only paths the gateway routes there', async () => {
    const response = await fetch(`${gateway.url}/api/docs/openapi.json`)
    expect(response.status).toBe(200)
    const document = (await response.json()) as OpenApiDocument
    expect(document.openapi).toBe('3.1.0')
    expect(Object.keys(document.paths ?? {})).toEqual([
      '/api/analytics/events',
      '/api/jobs/{id}',
      '/api/people/{id}',
    ])
    expect(document.paths?.['/internal/debug']).toBeUndefined()
    const read = document.paths?.['/api/jobs/{id}']?.get as {
      responses: Record<string, unknown>
      security: unknown
    }
    expect(Object.keys(read.responses).sort()).toEqual(['200', '401', '404'])
    expect(read.security).toEqual(SECURED)
    expect(document.components?.securitySchemes).toHaveProperty('bearerAuth')
    // The unreachable auth service is named, so a partial document never passes as whole,
    // and so is every routed route whose answers are not described.
    expect(document.info['x-unavailable']).toEqual(['auth'])
    expect(document.info['x-undocumented']).toEqual([
      'DELETE /api/jobs/{id}',
      'DELETE /api/people/{id}',
    ])
  })

  it('does not list operator routes (health, readiness, metrics) or the proxied wildcards', async () => {
    const document = (await (
      await fetch(`${gateway.url}/api/docs/openapi.json`)
    ).json()) as OpenApiDocument
    const paths = Object.keys(document.paths ?? {})
    expect(paths.some((path) => /healthz|readyz|metrics|\*/.test(path))).toBe(false)
  })

  it('serves a readable reference page and its script from the gateway itself', async () => {
    const page = await fetch(`${gateway.url}/api/docs/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    const html = await page.text()
    expect(html).toContain('/api/docs/openapi.json')
    // The page's one inline script (the viewer's start) is allowed by its hash, on this page only.
    const inline = html.match(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/)?.[1] ?? ''
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`
    expect(page.headers.get('content-security-policy')).toContain(`script-src 'self' ${hash}`)
    const home = await fetch(`${gateway.url}/api/docs/openapi.json`)
    expect(home.headers.get('content-security-policy')).toContain("script-src 'self';")
    const script = html.match(/<script[^>]+src="([^"]+)"/)?.[1]
    expect(script).toBeDefined()
    const js = await fetch(new URL(script!, `${gateway.url}/api/docs/`))
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toMatch(/javascript/)
  })
})

describe('the conversations service in the API description', () => {
  it('merges its document under /api/conversations, and names it in x-unavailable when it does not answer', async () => {
    const conversations = await startDocumentedService('conversations', '/api/conversations')
    const jobs = await startDocumentedService('jobs', '/api/jobs')
    const reachable = await startGateway({
      JOBS_URL: jobs.url,
      CONVERSATIONS_URL: conversations.url,
    })
    const down = await startGateway({ JOBS_URL: jobs.url, CONVERSATIONS_URL: await unusedUrl() })
    try {
      const merged = (await (
        await fetch(`${reachable.url}/api/docs/openapi.json`)
      ).json()) as OpenApiDocument
      expect(Object.keys(merged.paths ?? {})).toEqual([
        '/api/analytics/events',
        '/api/conversations/{id}',
        '/api/jobs/{id}',
      ])
      expect(merged.paths?.['/api/conversations/{id}']?.get).toMatchObject({
        tags: ['conversations'],
        security: SECURED,
      })
      expect(merged.info['x-unavailable']).toBeUndefined()

      const partial = (await (
        await fetch(`${down.url}/api/docs/openapi.json`)
      ).json()) as OpenApiDocument
      expect(partial.info['x-unavailable']).toEqual(['conversations'])
      expect(Object.keys(partial.paths ?? {})).toEqual(['/api/analytics/events', '/api/jobs/{id}'])
    } finally {
      await reachable.app.close()
      await down.app.close()
      await conversations.app.close()
      await jobs.app.close()
    }
  })
})

describe('merging service documents', () => {
  const doc = (paths: Record<string, Record<string, unknown>>, schemas = {}): OpenApiDocument => ({
    openapi: '3.1.0',
    info: { title: 'x', version: '1' },
    paths,
    components: { schemas },
  })

  it('prefixes named schemas with their service and rewrites every $ref', () => {
    const ref = { $ref: '#/components/schemas/def-0' }
    const merged = mergeOpenApi(
      [
        {
          source: 'jobs',
          document: doc(
            { '/api/jobs': { get: { responses: { 200: ref } } } },
            { 'def-0': ErrorSchema },
          ),
        },
        {
          source: 'people',
          document: doc({ '/api/people': { get: { responses: { 200: ref } } } }, { 'def-0': {} }),
        },
      ],
      { title: 'all', version: '1' },
    )
    expect(Object.keys(merged.components?.schemas ?? {}).sort()).toEqual([
      'jobs.def-0',
      'people.def-0',
    ])
    expect(merged.paths?.['/api/jobs']?.get).toEqual({
      responses: { 200: { $ref: '#/components/schemas/jobs.def-0' } },
      tags: ['jobs'],
    })
  })

  it('routes only the methods the gateway forwards (GET /logout, never POST)', () => {
    expect(isRouted('auth', '/logout', 'get')).toBe(true)
    expect(isRouted('auth', '/logout', 'post')).toBe(false)
    expect(isRouted('people', '/api/jobs/{id}', 'get')).toBe(false)
    expect(isRouted('notifications', '/socket.io/', 'get')).toBe(false)
    expect(isRouted('conversations', '/api/conversations/{id}/messages', 'post')).toBe(true)
    expect(isRouted('conversations', '/api/reports', 'get')).toBe(false)
  })
})
