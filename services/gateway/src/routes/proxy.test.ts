import {
  rawRequest,
  startGateway,
  startRecordingUpstream,
  unusedUrl,
  type RecordingUpstream,
  type RunningGateway,
} from '../test/helpers'

const SERVICES = ['auth', 'people', 'jobs', 'favorites', 'notifications', 'conversations'] as const

describe('proxying to the services', () => {
  const upstreams = {} as Record<(typeof SERVICES)[number], RecordingUpstream>
  let gateway: RunningGateway

  beforeAll(async () => {
    for (const service of SERVICES) upstreams[service] = await startRecordingUpstream(service)
    gateway = await startGateway({
      AUTH_URL: upstreams.auth.url,
      PEOPLE_URL: `${upstreams.people.url}/`,
      JOBS_URL: upstreams.jobs.url,
      FAVORITES_URL: upstreams.favorites.url,
      NOTIFICATIONS_URL: upstreams.notifications.url,
      CONVERSATIONS_URL: upstreams.conversations.url,
      // Nothing listens there: the service is configured but down.
      MEDIA_URL: await unusedUrl(),
      // REPORTS_URL left out: the service is not deployed.
    })
  })

  afterAll(async () => {
    await gateway.app.close()
    await Promise.all(SERVICES.map((service) => upstreams[service].close()))
  })

  const lastRequest = (service: (typeof SERVICES)[number]) => upstreams[service].requests.at(-1)

  it.each([
    ['GET', '/api/auth/refresh', 'auth'],
    ['GET', '/api/auth', 'auth'],
    ['GET', '/logout', 'auth'],
    ['PATCH', '/api/users/64b7f0c2a1/worker-profile', 'people'],
    ['GET', '/api/people/feed?category=Cleaning&page=2', 'people'],
    ['GET', '/api/jobs/posts/search?q=garden%20work&sort=new', 'jobs'],
    ['DELETE', '/api/favorites/posts/42', 'favorites'],
    ['GET', '/api/notifications/unread-count', 'notifications'],
    ['POST', '/api/email/send-email', 'notifications'],
    ['GET', '/api/conversations?cursor=abc', 'conversations'],
    ['GET', '/api/conversations/by-request/64b7f0c2a1', 'conversations'],
    ['POST', '/api/conversations/c1/messages', 'conversations'],
    ['POST', '/api/conversations/c1/messages/m1/report', 'conversations'],
  ] as const)(
    '%s %s reaches the %s service with its path and query unchanged',
    async (method, path, service) => {
      const response = await fetch(`${gateway.url}${path}`, {
        method,
        ...(method === 'POST' || method === 'PATCH'
          ? { body: '{}', headers: { 'content-type': 'application/json' } }
          : {}),
      })

      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ service, method, url: path })
    },
  )

  it('a spoofed x-user-id header never reaches the upstream', async () => {
    await fetch(`${gateway.url}/api/jobs/posts/mine`, {
      headers: {
        'X-User-Id': '000000000000000000000001',
        'x-user-roles': '2001',
        'x-userid': 'admin',
        'x-auth-user': 'admin',
        'x-authenticated': 'true',
        'x-forwarded-user': 'admin',
        'x-roles': '2001',
        'x-caller': 'people-service',
        'x-internal-token': 'secret',
        authorization: 'Bearer some.jwt.token',
        cookie: 'refresh=abc',
      },
    })

    const headerNames = Object.keys(lastRequest('jobs')?.headers ?? {})
    expect(
      headerNames.filter((name) =>
        /^x-(user|auth|forwarded-user|roles|caller|internal-)/.test(name),
      ),
    ).toEqual([])
    // What services do verify still gets through.
    expect(lastRequest('jobs')?.headers.authorization).toBe('Bearer some.jwt.token')
    expect(lastRequest('jobs')?.headers.cookie).toBe('refresh=abc')
  })

  describe('the refresh cookie', () => {
    const cookies = 'theme=dark; refresh_token=rt-secret; XSRF-TOKEN=xsrf-1'

    it.each([
      ['GET', '/api/auth/refresh'],
      ['POST', '/api/auth/refresh'],
      ['GET', '/logout'],
    ] as const)('reaches the auth service on %s %s', async (method, path) => {
      await fetch(`${gateway.url}${path}`, { method, headers: { cookie: cookies } })

      expect(lastRequest('auth')?.headers.cookie).toBe(cookies)
    })

    it.each([
      ['/api/users/u1/profile', 'people'],
      ['/api/people/feed', 'people'],
      ['/api/jobs/posts', 'jobs'],
      ['/api/favorites/posts', 'favorites'],
      ['/api/notifications/unread-count', 'notifications'],
      ['/api/conversations/unread', 'conversations'],
      ['/socket.io/?EIO=4&transport=polling', 'notifications'],
    ] as const)('is removed before %s reaches %s, other cookies kept', async (path, service) => {
      const response = await fetch(`${gateway.url}${path}`, { headers: { cookie: cookies } })

      expect(response.status).toBe(200)
      expect(lastRequest(service)?.url).toBe(path)
      expect(lastRequest(service)?.headers.cookie).toBe('theme=dark; XSRF-TOKEN=xsrf-1')
    })

    it('is removed from a WebSocket handshake to the notifications service', async () => {
      const before = upstreams.notifications.requests.length
      await rawRequest(`${gateway.url}/socket.io/?EIO=4&transport=websocket`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          cookie: cookies,
        },
      })

      expect(upstreams.notifications.requests.length).toBe(before + 1)
      expect(lastRequest('notifications')?.headers.upgrade).toBe('websocket')
      expect(lastRequest('notifications')?.headers.cookie).toBe('theme=dark; XSRF-TOKEN=xsrf-1')
    })

    it.each([
      ['refresh_token=rt-secret', undefined],
      ['refresh_token=rt-secret; refresh_token=second', undefined],
      ['a=1;refresh_token=rt-secret;b=2', 'a=1; b=2'],
      [
        'refresh_token_hint=1; my_refresh_token=2; refresh_token',
        'refresh_token_hint=1; my_refresh_token=2',
      ],
      ['refresh=abc', 'refresh=abc'],
    ])('a Cookie header of %p reaches the people service as %p', async (sent, received) => {
      await fetch(`${gateway.url}/api/people/feed`, { headers: { cookie: sent } })

      expect(lastRequest('people')?.headers.cookie).toBe(received)
    })
  })

  it('the upstream gets the caller’s x-request-id when it is sane, and the same id comes back', async () => {
    const response = await fetch(`${gateway.url}/api/jobs/posts`, {
      headers: { 'x-request-id': 'web-7f3a.1' },
    })

    expect(lastRequest('jobs')?.headers['x-request-id']).toBe('web-7f3a.1')
    expect(response.headers.get('x-request-id')).toBe('web-7f3a.1')
  })

  it('the upstream gets a fresh x-request-id when the caller’s is not sane', async () => {
    const response = await fetch(`${gateway.url}/api/jobs/posts`, {
      headers: { 'x-request-id': 'x'.repeat(200) },
    })

    const forwarded = lastRequest('jobs')?.headers['x-request-id']
    expect(forwarded).toMatch(/^[0-9a-f-]{36}$/)
    expect(response.headers.get('x-request-id')).toBe(forwarded)
  })

  it('the upstream gets a request id even when the caller sent none', async () => {
    await fetch(`${gateway.url}/api/people/feed`)

    expect(lastRequest('people')?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('x-forwarded-* describe the real peer, whatever the client claims', async () => {
    await fetch(`${gateway.url}/api/jobs/posts`, {
      headers: {
        'x-forwarded-for': '203.0.113.9',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
        'x-real-ip': '203.0.113.9',
        forwarded: 'for=203.0.113.9',
      },
    })

    const headers = lastRequest('jobs')?.headers ?? {}
    expect(headers['x-forwarded-for']).toBe('127.0.0.1')
    expect(headers['x-forwarded-proto']).toBe('http')
    expect(headers['x-forwarded-host']).toBe(`127.0.0.1:${gateway.port}`)
    expect(headers['x-real-ip']).toBeUndefined()
    expect(headers.forwarded).toBeUndefined()
  })

  it('two clients at different addresses reach the services under their own, whatever they claim', async () => {
    // The support form's budget keys on this header (services/notifications/src/support).
    for (const client of ['127.0.0.2', '127.0.0.3']) {
      await rawRequest(`${gateway.url}/api/email/send-email`, {
        method: 'POST',
        localAddress: client,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
        body: '{}',
      })
      expect(lastRequest('notifications')?.headers['x-forwarded-for']).toBe(client)
    }
  })

  it('behind a trusted proxy, the client address it reports is passed on, and nobody else can claim one', async () => {
    // The proxy in front of this gateway is 127.0.0.1; 127.0.0.4 is a client reaching the
    // gateway around it.
    const behindProxy = await startGateway({
      NOTIFICATIONS_URL: upstreams.notifications.url,
      TRUST_PROXY: '127.0.0.1',
    })
    try {
      const send = (localAddress: string, forwardedFor: string) =>
        rawRequest(`${behindProxy.url}/api/email/send-email`, {
          method: 'POST',
          localAddress,
          headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
          body: '{}',
        })
      await send('127.0.0.1', '198.51.100.1, 203.0.113.7')
      expect(lastRequest('notifications')?.headers['x-forwarded-for']).toBe(
        '203.0.113.7, 127.0.0.1',
      )
      await send('127.0.0.4', '203.0.113.7')
      expect(lastRequest('notifications')?.headers['x-forwarded-for']).toBe('127.0.0.4')
    } finally {
      await behindProxy.app.close()
    }
  })

  it('a JSON body reaches the upstream byte for byte', async () => {
    // A number beyond double precision would not survive a parse and re-serialise.
    const body = '{"title":"Fix the fence","budget":12345678901234567890,"tags":["garden"]}'
    await fetch(`${gateway.url}/api/jobs/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })

    expect(lastRequest('jobs')?.body).toBe(body)
    expect(lastRequest('jobs')?.headers['content-type']).toBe('application/json')
    expect(lastRequest('jobs')?.headers['content-length']).toBe(String(Buffer.byteLength(body)))
  })

  it('a body without a content type is forwarded too', async () => {
    const response = await rawRequest(`${gateway.url}/api/jobs/posts/1/requests`, {
      method: 'POST',
      body: 'hello',
    })

    expect(response.status).toBe(200)
    expect(lastRequest('jobs')?.body).toBe('hello')
  })

  it('a body over the limit gets 413 in the error shape and never reaches the upstream', async () => {
    const before = upstreams.jobs.requests.length
    const response = await fetch(`${gateway.url}/api/jobs/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'x'.repeat(1024 * 1024 + 1) }),
    })

    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ message: expect.any(String), code: expect.any(String) })
    expect(upstreams.jobs.requests.length).toBe(before)
  })

  it('a streamed body without a length gets 413 once it passes the limit', async () => {
    const before = upstreams.jobs.requests.length
    const response = await rawRequest(`${gateway.url}/api/jobs/posts`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
      body: Buffer.alloc(1024 * 1024 + 1, 'x'),
    })

    expect(response.status).toBe(413)
    expect(JSON.parse(response.body)).toEqual({
      message: expect.any(String),
      code: expect.any(String),
    })
    expect(upstreams.jobs.requests.length).toBe(before)
  })

  it('a client that sends Expect: 100-continue is still proxied', async () => {
    const body = JSON.stringify({ email: 'a@example.com', message: 'hello' })
    const response = await rawRequest(`${gateway.url}/api/email/send-email`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        expect: '100-continue',
        'content-length': Buffer.byteLength(body),
      },
      body,
      waitForContinue: true,
    })

    expect(response.status).toBe(200)
    expect(lastRequest('notifications')?.body).toBe(body)
  })

  it('an x-powered-by header from a service is not passed on', async () => {
    const response = await fetch(`${gateway.url}/api/jobs/posts`)

    expect(response.status).toBe(200)
    expect(response.headers.get('x-powered-by')).toBeNull()
  })

  it('a service that is not configured answers 503 UPSTREAM_UNAVAILABLE', async () => {
    const response = await fetch(`${gateway.url}/api/reports/posts`, { method: 'POST', body: '{}' })

    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      message: 'The reports service is not available',
      code: 'UPSTREAM_UNAVAILABLE',
    })
  })

  it('a conversations URL that is not configured answers 503 naming the conversations service', async () => {
    const gatewayWithout = await startGateway({ JOBS_URL: upstreams.jobs.url })
    try {
      const response = await fetch(`${gatewayWithout.url}/api/conversations/unread`)

      expect(response.status).toBe(503)
      expect(await response.json()).toEqual({
        message: 'The conversations service is not available',
        code: 'UPSTREAM_UNAVAILABLE',
      })
    } finally {
      await gatewayWithout.app.close()
    }
  })

  it('a configured service that cannot be reached answers 503 in the JSON error shape', async () => {
    const response = await fetch(`${gateway.url}/api/upload/post-picture`, {
      headers: { accept: 'text/html' },
    })

    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await response.json()).toEqual({
      message: 'The media service could not be reached',
      code: 'UPSTREAM_UNREACHABLE',
    })
  })

  it('an unknown /api path is a 404 in the JSON error shape, even for a browser', async () => {
    const response = await fetch(`${gateway.url}/api/nothing-here`, {
      headers: { accept: 'text/html' },
    })

    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      message: 'No route for GET /api/nothing-here',
      code: 'NOT_FOUND',
    })
  })

  it('a prefix matches whole path segments only', async () => {
    const response = await fetch(`${gateway.url}/api/jobsearch`)

    expect(response.status).toBe(404)
  })

  it('only GET /logout goes to the auth service', async () => {
    const response = await fetch(`${gateway.url}/logout`, { method: 'POST' })

    expect(response.status).toBe(404)
  })

  it('a request offering an h2c upgrade is served as plain HTTP/1.1, body included', async () => {
    const body = JSON.stringify({ title: 'Paint the shed' })
    const response = await rawRequest(`${gateway.url}/api/jobs/posts?draft=1`, {
      method: 'POST',
      headers: {
        connection: 'Upgrade, HTTP2-Settings',
        upgrade: 'h2c',
        'http2-settings': 'AAMAAABkAAQCAAAAAAIAAAAA',
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
      body,
    })

    expect(response.status).toBe(200)
    expect(JSON.parse(response.body)).toEqual({
      service: 'jobs',
      method: 'POST',
      url: '/api/jobs/posts?draft=1',
    })
    expect(lastRequest('jobs')?.body).toBe(body)
    expect(lastRequest('jobs')?.headers.upgrade).toBeUndefined()
    expect(lastRequest('jobs')?.headers['http2-settings']).toBeUndefined()
  })

  it('a WebSocket handshake outside /socket.io is refused rather than left hanging', async () => {
    const response = await rawRequest(`${gateway.url}/api/jobs/posts`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    })

    expect(response.status).toBe(400)
    expect(JSON.parse(response.body)).toEqual({
      message: 'WebSocket connections are served under /socket.io only',
      code: 'WEBSOCKET_NOT_SUPPORTED',
    })
  })
})
