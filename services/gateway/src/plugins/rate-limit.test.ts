import { rawRequest, startGateway, type RunningGateway } from '../test/helpers'

describe('per-IP rate limiting', () => {
  const running: RunningGateway[] = []

  async function gatewayWith(env: Record<string, string>) {
    const gateway = await startGateway({
      RATE_LIMIT_MAX: '3',
      RATE_LIMIT_WINDOW_MS: '60000',
      ...env,
    })
    running.push(gateway)
    return gateway
  }

  afterEach(async () => {
    await Promise.all(running.splice(0).map((gateway) => gateway.app.close()))
  })

  const hit = (
    gateway: RunningGateway,
    headers: Record<string, string> = {},
    path = '/api/nothing',
  ) => fetch(`${gateway.url}${path}`, { headers })

  it('over the limit a client gets 429 in the error shape, with Retry-After', async () => {
    const gateway = await gatewayWith({})
    for (let i = 0; i < 3; i++) expect((await hit(gateway)).status).toBe(404)

    const limited = await hit(gateway)

    expect(limited.status).toBe(429)
    expect(await limited.json()).toEqual({
      message: expect.stringMatching(/^Too many requests/),
      code: 'TOO_MANY_REQUESTS',
    })
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    // The refusal is counted for operators; the three answered requests are not.
    const metrics = (await gateway.app.inject({ url: '/metrics' })).body
    expect(metrics).toMatch(/rate_limit_refusals_total\{[^}]*service="gateway"[^}]*\} 1\n/)
  })

  it('with TRUST_PROXY off, a spoofed X-Forwarded-For does not give a fresh bucket', async () => {
    const gateway = await gatewayWith({ TRUST_PROXY: 'false' })
    for (let i = 0; i < 3; i++) await hit(gateway, { 'x-forwarded-for': `198.51.100.${i}` })

    const response = await hit(gateway, { 'x-forwarded-for': '198.51.100.200' })

    expect(response.status).toBe(429)
  })

  it('with TRUST_PROXY=1, each client address reported by the proxy has its own bucket', async () => {
    const gateway = await gatewayWith({ TRUST_PROXY: '1' })
    for (let i = 0; i < 3; i++) await hit(gateway, { 'x-forwarded-for': '198.51.100.1' })

    expect((await hit(gateway, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(429)
    expect((await hit(gateway, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(404)
  })

  it('with TRUST_PROXY=1, only the entry the proxy appended counts, not what the client wrote before it', async () => {
    const gateway = await gatewayWith({ TRUST_PROXY: '1' })
    for (let i = 0; i < 3; i++)
      await hit(gateway, { 'x-forwarded-for': `10.9.9.${i}, 198.51.100.1` })

    expect((await hit(gateway, { 'x-forwarded-for': '10.9.9.99, 198.51.100.1' })).status).toBe(429)
  })

  it('with TRUST_PROXY listing the proxy address, its forwarded clients have their own buckets', async () => {
    const gateway = await gatewayWith({ TRUST_PROXY: '127.0.0.1/32' })
    for (let i = 0; i < 3; i++) await hit(gateway, { 'x-forwarded-for': '198.51.100.1' })

    expect((await hit(gateway, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(429)
    expect((await hit(gateway, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(404)
  })

  it('health, readiness and metrics requests do not count against the limit', async () => {
    const gateway = await gatewayWith({})
    for (let i = 0; i < 5; i++) {
      for (const path of ['/healthz', '/readyz', '/metrics'])
        expect((await hit(gateway, {}, path)).status).toBe(200)
    }

    expect((await hit(gateway)).status).toBe(404)
    for (let i = 0; i < 3; i++) await hit(gateway)
    expect((await hit(gateway, {}, '/healthz')).status).toBe(200)
  })

  it("the web app's built files do not count against the limit; its pages and API calls do", async () => {
    const gateway = await gatewayWith({})
    // A first visit fetches dozens of these (no build here: each answer is a 404).
    for (let i = 0; i < 10; i++) {
      expect((await hit(gateway, {}, `/assets/chunk-${i}.js`)).status).toBe(404)
    }

    for (let i = 0; i < 3; i++) expect((await hit(gateway)).status).toBe(404)
    expect((await hit(gateway)).status).toBe(429)
    // A path that only looks like one of them is limited.
    expect((await hit(gateway, {}, '/api/assets/x')).status).toBe(429)
  })

  it('a WebSocket handshake counts against the limit too', async () => {
    const gateway = await gatewayWith({})
    for (let i = 0; i < 3; i++) await hit(gateway)

    const response = await rawRequest(`${gateway.url}/socket.io/?EIO=4&transport=websocket`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    })

    expect(response.status).toBe(429)
  })
})
