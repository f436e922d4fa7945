import { Type } from '@sinclair/typebox'
import { createServiceApp } from './create-app'
import { ConflictError, TooManyRequestsError } from './errors'

async function buildApp() {
  const app = await createServiceApp({ serviceName: 'test', logLevel: 'silent' })
  app.post(
    '/things',
    { schema: { body: Type.Object({ name: Type.String({ minLength: 1 }) }) } },
    async () => ({ ok: true }),
  )
  // Loosely typed on purpose: only the operator check stands between a client and the handler.
  app.post('/loose', async (request) => ({ received: request.body }))
  app.get('/search', async (request) => ({ received: request.query }))
  app.get('/conflict', async () => {
    throw new ConflictError('You have already sent a request for this post')
  })
  app.get('/limited', async () => {
    throw new TooManyRequestsError('Too many attempts, try again in a minute', 60)
  })
  app.get('/boom', async () => {
    throw new Error('database password is hunter2')
  })
  await app.ready()
  return app
}

describe('createServiceApp', () => {
  let app: Awaited<ReturnType<typeof buildApp>>
  beforeAll(async () => {
    app = await buildApp()
  })
  afterAll(() => app.close())

  it('answers domain errors with their status and the { message, code } shape', async () => {
    const response = await app.inject({ url: '/conflict' })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({
      message: 'You have already sent a request for this post',
      code: 'CONFLICT',
    })
  })

  it('sets Retry-After on a 429', async () => {
    const response = await app.inject({ url: '/limited' })
    expect(response.statusCode).toBe(429)
    expect(response.headers['retry-after']).toBe('60')
  })

  it('hides the details of an unexpected error from the client', async () => {
    const response = await app.inject({ url: '/boom' })
    expect(response.statusCode).toBe(500)
    expect(response.body).not.toContain('hunter2')
    expect(response.json().code).toBe('INTERNAL')
  })

  it('names the invalid field of a body that fails its schema', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', payload: { name: '' } })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('name'),
    })
  })

  it('answers an unknown route with a JSON 404', async () => {
    const response = await app.inject({ url: '/nope?x=1' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ message: 'No route for GET /nope', code: 'NOT_FOUND' })
  })

  it('reuses a sane incoming x-request-id and replaces a hostile one', async () => {
    const kept = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } })
    expect(kept.headers['x-request-id']).toBe('abc-123')
    const replaced = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'a b\nc' } })
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('is alive, ready with no dependencies, and exposes Prometheus metrics', async () => {
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' })
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200)
    const metrics = await app.inject({ url: '/metrics' })
    expect(metrics.body).toContain('http_request_duration_seconds')
    expect(metrics.body).toContain('process_resident_memory_bytes')
  })

  it('reports not ready when a dependency check fails', async () => {
    const other = await createServiceApp({ serviceName: 'test', logLevel: 'silent' })
    other.addReadinessCheck('database', async () => {
      throw new Error('connection refused')
    })
    const response = await other.inject({ url: '/readyz' })
    expect(response.statusCode).toBe(503)
    expect(response.json().checks).toEqual({ database: 'connection refused' })
    await other.close()
  })

  it('refuses MongoDB operators anywhere in a body or a query, naming where', async () => {
    const attempts = [
      { method: 'POST' as const, url: '/loose', payload: { email: { $ne: null } } },
      { method: 'POST' as const, url: '/loose', payload: { profile: { name: { $gt: '' } } } },
      { method: 'POST' as const, url: '/loose', payload: { $where: '1' } },
      { method: 'POST' as const, url: '/loose', payload: { tags: [{ $regex: '.*' }] } },
      { method: 'POST' as const, url: '/things', payload: { name: { $ne: null } } },
      { method: 'GET' as const, url: '/search?email[$ne]=x' },
      { method: 'GET' as const, url: '/search?$where=1' },
    ]
    const answers = await Promise.all(attempts.map((attempt) => app.inject(attempt)))
    expect(answers.map((answer) => [answer.statusCode, answer.json().code])).toEqual(
      attempts.map(() => [400, 'OPERATOR_NOT_ALLOWED']),
    )
    expect(answers[1]!.json().message).toContain('body.profile.name.$gt')
    expect(answers[5]!.json().message).toContain('query.email[$ne]')
    // Dollars in values are data: a price, a password.
    const fine = await app.inject({
      method: 'POST',
      url: '/loose',
      payload: { note: '$20 an hour', password: 'Pa$$word1' },
    })
    expect(fine.statusCode).toBe(200)
  })
})

describe('createServiceApp with METRICS_PORT', () => {
  it('serves /metrics on its own port only, and closes it with the app', async () => {
    const app = await createServiceApp({ serviceName: 'test', logLevel: 'silent', metricsPort: 0 })
    await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const api = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
      const metricsPort = app.metricsAddress()
      expect(metricsPort).toEqual(expect.any(Number))
      expect((await fetch(`${api}/metrics`)).status).toBe(404)
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
      expect(scraped.status).toBe(200)
      expect(await scraped.text()).toContain('process_cpu_user_seconds_total')
      expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(404)
    } finally {
      await app.close()
    }
    expect(app.metricsAddress()).toBeNull()
  })
})
