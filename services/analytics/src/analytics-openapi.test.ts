import {
  documentationProblems,
  type OpenApiDocument,
  type PublicRoute,
} from '@marketplace/service-kit/testing'
import {
  ADMIN_ROLES,
  EVENT_WAIT_MS,
  startAnalyticsTestApp,
  type AnalyticsTestApp,
} from './test/analytics-test-app'

/** Every public route of the service and its success status. */
const PUBLIC_ROUTES: PublicRoute[] = [['get', '/api/analytics/daily', 200]]

describe('analytics service: the API document and the response schema (real servers)', () => {
  let app: AnalyticsTestApp

  beforeAll(async () => {
    app = await startAnalyticsTestApp('analytics_openapi')
  }, EVENT_WAIT_MS * 2)

  afterAll(async () => {
    await app?.stop()
  })

  it('documents every public route with its success answer, 401 and the bearer token', async () => {
    const answer = await app.clientFor(null).get<OpenApiDocument>('/openapi.json')
    expect(answer.status).toBe(200)
    expect(
      documentationProblems(answer.body, PUBLIC_ROUTES, {
        tag: 'analytics',
        security: [{ bearerAuth: [] }],
      }),
    ).toEqual([])
  })

  it('sends no field the schema does not list, whatever the stored day holds', async () => {
    const today = new Date().toISOString().slice(0, 10)
    await app.db.collection('analytics_days').insertOne({
      _id: today as never,
      expiresAt: new Date(Date.now() + 1e10),
      pageViews: 1,
      routes: { '/': 1 },
      offsets: { p0: 41 },
      sessionIds: ['session-secret-1'],
    })
    const answer = await app
      .clientFor(app.newUserId(), app.baseUrl, ADMIN_ROLES)
      .get('/api/analytics/daily?days=1')
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body).sort()).toEqual([
      'days',
      'devices',
      'from',
      'helpPages',
      'profileCompletion',
      'to',
      'topErrors',
      'topRoutes',
      'totals',
    ])
    expect(answer.text).not.toContain('session-secret')
    expect(answer.text).not.toContain('offsets')
    expect(answer.body.topRoutes).toEqual([{ route: '/', count: 1 }])
  })
})
