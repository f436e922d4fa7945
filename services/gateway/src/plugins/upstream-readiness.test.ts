import http from 'node:http'
import { closeServer, listen, startGateway, unusedUrl, type RunningGateway } from '../test/helpers'

describe('health and readiness', () => {
  const healthy = http.createServer((request, response) => {
    response.writeHead(request.url === '/healthz' ? 200 : 404, {
      'content-type': 'application/json',
    })
    response.end('{"status":"ok"}')
  })
  const failing = http.createServer((_request, response) => {
    response.writeHead(500)
    response.end()
  })
  let healthyUrl: string
  let failingUrl: string
  const running: RunningGateway[] = []

  beforeAll(async () => {
    healthyUrl = await listen(healthy)
    failingUrl = await listen(failing)
  })

  afterEach(async () => {
    await Promise.all(running.splice(0).map((gateway) => gateway.app.close()))
  })

  afterAll(async () => {
    await closeServer(healthy)
    await closeServer(failing)
  })

  async function gatewayWith(env: Record<string, string>) {
    const gateway = await startGateway(env)
    running.push(gateway)
    return gateway
  }

  it('/readyz checks each configured upstream’s /healthz and is ready when all answer', async () => {
    const gateway = await gatewayWith({ JOBS_URL: healthyUrl, PEOPLE_URL: healthyUrl })

    const response = await fetch(`${gateway.url}/readyz`)

    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { 'upstream:jobs': 'ok', 'upstream:people': 'ok' },
    })
  })

  it('/readyz is 503 and names the upstream that is down or failing', async () => {
    const gateway = await gatewayWith({ JOBS_URL: await unusedUrl(), REPORTS_URL: failingUrl })

    const response = await fetch(`${gateway.url}/readyz`)

    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      status: 'not ready',
      checks: { 'upstream:jobs': 'unreachable (ECONNREFUSED)', 'upstream:reports': 'answered 500' },
    })
  })

  it('/readyz is ready while one instance of a service answers, and names them all when none does', async () => {
    const down = await unusedUrl()
    const gateway = await gatewayWith({
      JOBS_URL: `${down},${healthyUrl}`,
      REPORTS_URL: `${down},${failingUrl}`,
    })

    const response = await fetch(`${gateway.url}/readyz`)

    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      status: 'not ready',
      checks: {
        'upstream:jobs': 'ok',
        'upstream:reports': 'every instance: unreachable (ECONNREFUSED); answered 500',
      },
    })
  })

  it('/healthz and /metrics stay the gateway’s own, whatever the upstreams do', async () => {
    const gateway = await gatewayWith({ JOBS_URL: await unusedUrl() })

    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200)
    const metrics = await fetch(`${gateway.url}/metrics`)
    expect(metrics.status).toBe(200)
    expect(await metrics.text()).toContain('http_request_duration_seconds')
  })
})
