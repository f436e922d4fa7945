import { ANALYTICS_EVENTS_PATH } from '@marketplace/contracts/marketplace'
import { isRouted } from './api-docs/merge-openapi'
import {
  startGateway,
  startRecordingUpstream,
  type RecordingUpstream,
  type RunningGateway,
} from './test/helpers'

describe('the analytics upstream beside the gateway’s own analytics intake', () => {
  let analytics: RecordingUpstream
  let gateway: RunningGateway

  beforeAll(async () => {
    analytics = await startRecordingUpstream('analytics')
    // No KAFKA_BROKERS: the intake answers 503 itself, which tells it apart from the proxy.
    gateway = await startGateway({ ANALYTICS_URL: analytics.url })
  })

  afterAll(async () => {
    await gateway.app.close()
    await analytics.close()
  })

  it('sends the Analytics screen’s reads to the analytics service, path and query unchanged', async () => {
    const response = await fetch(`${gateway.url}/api/analytics/daily?days=30`, {
      headers: { authorization: 'Bearer x' },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      service: 'analytics',
      method: 'GET',
      url: '/api/analytics/daily?days=30',
    })
    expect(analytics.requests.at(-1)?.headers.authorization).toBe('Bearer x')
  })

  it('keeps POST /api/analytics/events in the gateway and proxies no other analytics path', async () => {
    const before = analytics.requests.length
    const intake = await fetch(`${gateway.url}${ANALYTICS_EVENTS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [
          {
            name: 'page_view',
            occurredAt: new Date().toISOString(),
            path: '/',
            deviceType: 'desktop',
            sessionId: 'session-0001',
          },
        ],
      }),
    })
    expect(intake.status).toBe(503)
    expect(await intake.json()).toMatchObject({ code: 'ANALYTICS_UNAVAILABLE' })
    const other = await fetch(`${gateway.url}/api/analytics/raw`)
    expect(other.status).toBe(404)
    const write = await fetch(`${gateway.url}/api/analytics/daily`, { method: 'DELETE' })
    expect(write.status).toBe(404)
    expect(analytics.requests).toHaveLength(before)
  })

  it('names the analytics service when it is not configured', async () => {
    const without = await startGateway({})
    try {
      const response = await fetch(`${without.url}/api/analytics/daily`)
      expect(response.status).toBe(503)
      expect(await response.json()).toEqual({
        message: 'The analytics service is not available',
        code: 'UPSTREAM_UNAVAILABLE',
      })
    } finally {
      await without.app.close()
    }
  })

  it('merges only the analytics service’s read routes into the API description', () => {
    expect(isRouted('analytics', '/api/analytics/daily', 'get')).toBe(true)
    expect(isRouted('analytics', '/api/analytics/events', 'post')).toBe(false)
    expect(isRouted('gateway', '/api/analytics/events', 'post')).toBe(true)
  })
})
