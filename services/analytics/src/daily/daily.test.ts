import { APP_ROUTE_PATTERNS, NOT_AN_APP_ROUTE } from '@marketplace/contracts/marketplace'
import { consumerLag, infraEnv, testKeyPair, waitFor } from '@marketplace/service-kit/testing'
import { buildAnalyticsApp } from '../app'
import { readConfig } from '../config'
import {
  ADMIN_ROLES,
  EDITOR_ROLES,
  EVENT_WAIT_MS,
  receivedEvent,
  startAnalyticsTestApp,
  type AnalyticsTestApp,
} from '../test/analytics-test-app'
import {
  ANALYTICS_DAYS_COLLECTION,
  MAX_KEYS_PER_DAY,
  OTHER_KEY,
  dayOf,
  type DayDocument,
} from './day-document'
import type { DailyReport } from './daily-report'

const DAY_MS = 24 * 60 * 60 * 1000

/** Letters only: the message normalization folds digits, so distinct numbers would not do. */
const word = (n: number) => {
  let text = ''
  for (let rest = n + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    text = String.fromCharCode(97 + ((rest - 1) % 26)) + text
  }
  return text
}

describe('analytics: daily figures from the analytics.events stream (real Kafka and FerretDB)', () => {
  let app: AnalyticsTestApp
  let adminId: string

  beforeAll(async () => {
    app = await startAnalyticsTestApp('analytics_daily')
    adminId = app.newUserId()
  }, EVENT_WAIT_MS * 2)

  afterAll(async () => {
    await app?.stop()
  })

  const report = async (days = 1) => {
    const answer = await app
      .clientFor(adminId, app.baseUrl, ADMIN_ROLES)
      .get<DailyReport>(`/api/analytics/daily?days=${days}`)
    expect(answer.status).toBe(200)
    return answer.body
  }
  const today = () => dayOf(new Date())
  const untilPageViews = (count: number, days = 1) =>
    waitFor(
      async () => {
        const body = await report(days)
        return body.totals.pageViews >= count && body
      },
      { timeoutMs: EVENT_WAIT_MS, what: `${count} page views` },
    )

  it('counts page views per route and device, errors, help, support and profile completion per day', async () => {
    await app.publish([
      receivedEvent({ path: '/' }),
      receivedEvent({ path: '/', deviceType: 'mobile' }),
      // Ids in a path count as one route, the web app's pattern.
      receivedEvent({ path: '/messages/64f1a2b3c4d5e6f708192a3b' }),
      receivedEvent({ path: '/messages/650000000000000000000001/', deviceType: 'mobile' }),
      receivedEvent({
        name: 'client_error',
        path: '/settings-account',
        props: {
          message: 'Cannot read properties of undefined (reading id) at line 42',
          type: 'error',
        },
      }),
      receivedEvent({
        name: 'client_error',
        path: '/',
        props: {
          message: 'Cannot read properties of undefined (reading id) at line 7',
          type: 'error',
        },
      }),
      receivedEvent({ name: 'help_viewed', path: '/help' }),
      receivedEvent({ name: 'help_viewed', path: '/settings-help-support' }),
      receivedEvent({
        name: 'support_ticket_created',
        path: '/help',
        props: { channel: 'support' },
      }),
      receivedEvent({
        name: 'support_ticket_failed',
        path: '/contact-us',
        props: { channel: 'contact', status: 503 },
      }),
      receivedEvent({
        name: 'worker_profile_saved',
        path: '/settings-my-worker-profile',
        props: { completion: 4, of: 6 },
      }),
      receivedEvent({
        name: 'worker_profile_saved',
        path: '/settings-my-worker-profile',
        props: { completion: 6, of: 6 },
      }),
      // Skipped, and the partition moves on: not JSON, and JSON without a name.
      'not json at all',
      JSON.stringify({ path: '/' }),
    ])

    const body = await untilPageViews(4)
    await waitFor(async () => (await report()).totals.profilesSaved === 2, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the whole batch',
    })
    const final = await report()
    expect(final.from).toBe(today())
    expect(final.to).toBe(today())
    expect(final.days).toEqual([
      {
        date: today(),
        pageViews: 4,
        mobile: 2,
        desktop: 2,
        clientErrors: 2,
        helpViews: 2,
        supportCreated: 1,
        supportFailed: 1,
        profilesSaved: 2,
      },
    ])
    expect(final.topRoutes).toEqual([
      { route: '/', count: 2 },
      { route: '/messages/:conversationId', count: 2 },
    ])
    expect(final.devices).toEqual([
      { deviceType: 'desktop', count: 2 },
      { deviceType: 'mobile', count: 2 },
    ])
    expect(final.topErrors).toEqual([
      {
        message: 'Cannot read properties of undefined (reading id) at line <n>',
        count: 2,
        sentByBrowser: true,
      },
    ])
    expect(final.helpPages).toEqual([
      { path: '/help', count: 1 },
      { path: '/settings-help-support', count: 1 },
    ])
    expect(final.profileCompletion.filter((bucket) => bucket.count > 0)).toEqual([
      { filled: 4, of: 6, count: 1 },
      { filled: 6, of: 6, count: 1 },
    ])
    expect(body.days).toHaveLength(1)
    expect(app.app.analyticsConsumer.status().malformed).toBe(2)
  })

  it('counts paths that are no page of the app under one key, and escapes messages with "." and "$"', async () => {
    await app.publish([
      receivedEvent({ path: '/files/report.v2.pdf' }),
      receivedEvent({ path: '/$where' }),
      receivedEvent({
        name: 'client_error',
        props: { message: 'a.b is not a function; $set 100%' },
      }),
    ])
    await waitFor(
      async () => (await report()).topRoutes.some((row) => row.route === NOT_AN_APP_ROUTE),
      { timeoutMs: EVENT_WAIT_MS, what: 'the made-up paths counted' },
    )
    const body = await report()
    expect(body.topRoutes).toContainEqual({ route: NOT_AN_APP_ROUTE, count: 2 })
    expect(body.topRoutes.map((row) => row.route)).not.toContain('/$where')
    await waitFor(
      async () => (await report()).topErrors.some((row) => row.message.startsWith('a.b')),
      {
        timeoutMs: EVENT_WAIT_MS,
        what: 'the escaped message',
      },
    )
    // Free text from a browser, marked as such for the admin screen.
    expect((await report()).topErrors).toContainEqual({
      message: 'a.b is not a function; $set <n>%',
      count: 1,
      sentByBrowser: true,
    })
    const stored = await app.db
      .collection<DayDocument>(ANALYTICS_DAYS_COLLECTION)
      .findOne({ _id: today() })
    for (const key of [...Object.keys(stored!.routes!), ...Object.keys(stored!.errors!)]) {
      expect(key).not.toMatch(/[.$]/)
    }
  })

  it('a flood of made-up paths cannot push a real route into "(other)"', async () => {
    const flood = MAX_KEYS_PER_DAY + 20
    await app.publish([
      ...Array.from({ length: flood }, (_, n) => receivedEvent({ path: `/made-up/${word(n)}x` })),
      receivedEvent({ path: '/settings-security' }),
    ])
    await waitFor(
      async () => (await report()).topRoutes.some((row) => row.route === '/settings-security'),
      { timeoutMs: EVENT_WAIT_MS, what: 'the real route after the flood' },
    )
    const stored = await app.db
      .collection<DayDocument>(ANALYTICS_DAYS_COLLECTION)
      .findOne({ _id: today() })
    expect(stored!.routes![OTHER_KEY]).toBeUndefined()
    expect(Object.keys(stored!.routes!).length).toBeLessThan(APP_ROUTE_PATTERNS.length + 2)
    expect((await report()).topRoutes).toContainEqual({ route: '/settings-security', count: 1 })
  })

  it('keeps at most 200 error messages a day and counts the rest under "(other)"', async () => {
    const before = await report()
    const days = app.db.collection<DayDocument>(ANALYTICS_DAYS_COLLECTION)
    const known = Object.keys((await days.findOne({ _id: today() }))?.errors ?? {}).length
    const extra = 5
    const distinct = MAX_KEYS_PER_DAY - known + extra
    await app.publish(
      Array.from({ length: distinct }, (_, n) =>
        receivedEvent({ name: 'client_error', props: { message: `flood ${word(n)}` } }),
      ),
    )
    await waitFor(
      async () => (await report()).totals.clientErrors === before.totals.clientErrors + distinct,
      { timeoutMs: EVENT_WAIT_MS, what: 'the flood of errors' },
    )
    const stored = await days.findOne({ _id: today() })
    const keys = Object.keys(stored!.errors!)
    expect(keys).toHaveLength(MAX_KEYS_PER_DAY + 1)
    expect(stored!.errors![OTHER_KEY]).toBe(extra)
    expect((await report()).topErrors).toContainEqual({ message: OTHER_KEY, count: extra })
  })

  it('puts an event on the UTC day it reached the gateway and keeps the day 13 months', async () => {
    const past = new Date(Date.now() - 40 * DAY_MS)
    await app.publish([
      receivedEvent({
        path: '/about',
        receivedAt: past.toISOString(),
        occurredAt: past.toISOString(),
      }),
    ])
    const withPast = await untilPageViews(1, 41)
    await waitFor(async () => (await report(41)).days[0]!.pageViews === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the day 40 days ago',
    })
    const body = await report(41)
    expect(body.days).toHaveLength(41)
    expect(body.days[0]).toMatchObject({ date: dayOf(past), pageViews: 1 })
    expect(withPast.from).toBe(dayOf(past))
    // Not in the last 30 days.
    expect((await report(30)).topRoutes.map((row) => row.route)).not.toContain('/about')

    const stored = await app.db
      .collection<DayDocument>(ANALYTICS_DAYS_COLLECTION)
      .findOne({ _id: dayOf(past) })
    const expiry = new Date(`${dayOf(past)}T00:00:00.000Z`)
    expiry.setUTCDate(expiry.getUTCDate() + 1)
    expiry.setUTCMonth(expiry.getUTCMonth() + 13)
    expect(stored!.expiresAt).toEqual(expiry)
  })

  it('the sweep deletes the days past 13 months and keeps the others', async () => {
    const days = app.db.collection<DayDocument>(ANALYTICS_DAYS_COLLECTION)
    await days.insertOne({
      _id: '2020-01-01',
      expiresAt: new Date('2021-02-02T00:00:00Z'),
      pageViews: 3,
    })
    const removed = await app.app.dailyRepository.sweepExpired()
    expect(removed).toBe(1)
    expect(await days.findOne({ _id: '2020-01-01' })).toBeNull()
    expect(await days.findOne({ _id: today() })).not.toBeNull()
  })

  it('a batch delivered again counts only what its days have not counted yet', async () => {
    const repository = app.app.dailyRepository
    const day = '2021-06-01'
    const at = `${day}T12:00:00.000Z`
    const batch = Array.from({ length: 10 }, (_, offset) => ({
      offset,
      event: receivedEvent({ receivedAt: at, path: '/redelivered' }),
    }))
    // Partition 7 is no partition of the topic: the consumer never writes its offsets.
    expect(await repository.applyPartitionBatch(7, batch.slice(0, 4))).toBe(4)
    expect(await repository.applyPartitionBatch(7, batch.slice(0, 4))).toBe(0)
    // Redelivered with different bounds (after a crash): only offsets 4..9 are new.
    expect(await repository.applyPartitionBatch(7, batch)).toBe(6)
    const stored = await app.db
      .collection<DayDocument>(ANALYTICS_DAYS_COLLECTION)
      .findOne({ _id: day })
    expect(stored).toMatchObject({ pageViews: 10, offsets: { p7: 9 } })
  })

  it('a second consumer group reading the whole topic again into the same days changes nothing', async () => {
    await app.publish([receivedEvent({ path: '/terms' })])
    await waitFor(
      async () => (await report()).topRoutes.some((row) => row.route === '/terms'),
      {
        timeoutMs: EVENT_WAIT_MS,
        what: 'the replayed route',
      },
    )
    await waitFor(async () => (await consumerLag(app.groupPrefix)) === 0, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the first group caught up',
    })
    const all = () =>
      app.db.collection<DayDocument>(ANALYTICS_DAYS_COLLECTION).find().sort({ _id: 1 }).toArray()
    const before = await all()

    // Same database and topic, a new group from the topic's beginning: every message this
    // file published is delivered again.
    const infra = infraEnv()
    const again = await buildAnalyticsApp(
      readConfig({
        MONGO_URL: `${infra.mongoUrlBase}/${app.db.databaseName}?${infra.mongoUrlOptions}`,
        KAFKA_BROKERS: infra.kafkaBrokers,
        KAFKA_GROUP_PREFIX: `${app.groupPrefix}again-`,
        JWT_PUBLIC_KEY: testKeyPair().publicKey,
        LOG_LEVEL: 'silent',
        ANALYTICS_TOPIC: app.topic,
      }),
    )
    try {
      await again.ready()
      await again.analyticsConsumer.joined
      await waitFor(
        async () =>
          (await consumerLag(`${app.groupPrefix}again-`)) === 0 &&
          again.analyticsConsumer.status().lastBatchAt,
        { timeoutMs: EVENT_WAIT_MS, what: 'the second group read the topic' },
      )
      expect(await all()).toEqual(before)
      expect(again.analyticsConsumer.status().counted).toBe(0)
    } finally {
      await again.close()
    }
  })
})

describe('analytics: who may read the figures', () => {
  let app: AnalyticsTestApp

  beforeAll(async () => {
    app = await startAnalyticsTestApp('analytics_roles')
  }, EVENT_WAIT_MS * 2)

  afterAll(async () => {
    await app?.stop()
  })

  it('answers 401 signed out and 403 to a plain user, before reading the query', async () => {
    const guest = await app.clientFor(null).get('/api/analytics/daily?days=30')
    expect(guest.status).toBe(401)
    const user = app.clientFor(app.newUserId())
    for (const path of ['/api/analytics/daily', '/api/analytics/daily?days=nope']) {
      const answer = await user.get(path)
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 403,
        body: {
          message: 'Only administrators and editors can see analytics',
          code: 'ANALYSTS_ONLY',
        },
      })
    }
  })

  it('shows an editor and an administrator 30 days by default, oldest first, zeros included', async () => {
    for (const roles of [EDITOR_ROLES, ADMIN_ROLES]) {
      const answer = await app
        .clientFor(app.newUserId(), app.baseUrl, roles)
        .get<DailyReport>('/api/analytics/daily')
      expect(answer.status).toBe(200)
      expect(answer.body.days).toHaveLength(30)
      expect(answer.body.to).toBe(dayOf(new Date()))
      expect(answer.body.days[0]!.date).toBe(answer.body.from)
      expect(answer.body.days.every((day) => day.pageViews === 0)).toBe(true)
      expect(answer.body.profileCompletion).toHaveLength(7)
    }
  })

  it('answers days outside 1..400 or not a whole number with 400', async () => {
    const admin = app.clientFor(app.newUserId(), app.baseUrl, ADMIN_ROLES)
    for (const days of ['0', '401', '2.5', 'ten', '-3']) {
      const answer = await admin.get(`/api/analytics/daily?days=${days}`)
      expect({ days, status: answer.status, body: answer.body }).toEqual({
        days,
        status: 400,
        body: { message: 'days must be a whole number from 1 to 400', code: 'INVALID_QUERY' },
      })
    }
    expect((await admin.get('/api/analytics/daily?days=400')).status).toBe(200)
  })
})
