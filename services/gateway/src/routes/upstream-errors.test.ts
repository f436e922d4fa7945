import http from 'node:http'
import { closeServer, listen, startGateway, unusedUrl, type RunningGateway } from '../test/helpers'

// What an operator reads on /metrics when services fail to answer the gateway.
describe('gateway_upstream_errors_total', () => {
  let gateway: RunningGateway
  let silent: http.Server

  beforeAll(async () => {
    // A service that takes the request and never answers.
    silent = http.createServer(() => undefined)
    gateway = await startGateway({
      MEDIA_URL: await unusedUrl(),
      JOBS_URL: await listen(silent),
      UPSTREAM_TIMEOUT_MS: '1000',
    })
  })

  afterAll(async () => {
    await gateway.app.close()
    silent.closeAllConnections()
    await closeServer(silent)
  })

  const metrics = async () => (await gateway.app.inject({ url: '/metrics' })).body

  it('counts a service that cannot be reached as unreachable', async () => {
    // 503 with Retry-After on that service's routes only: the rest of the site serves.
    const answer = await fetch(`${gateway.url}/api/upload/post-picture`)
    expect(answer.status).toBe(503)
    expect(answer.headers.get('retry-after')).toBe('5')

    expect(await metrics()).toMatch(
      /gateway_upstream_errors_total\{upstream="media",reason="unreachable"[^}]*\} 1\n/,
    )
  })

  it('counts a service that does not answer in time as a timeout', async () => {
    expect((await fetch(`${gateway.url}/api/jobs`)).status).toBe(504)

    expect(await metrics()).toMatch(
      /gateway_upstream_errors_total\{upstream="jobs",reason="timeout"[^}]*\} 1\n/,
    )
  })
})
