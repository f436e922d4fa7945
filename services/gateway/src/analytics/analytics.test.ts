import { randomBytes } from 'node:crypto'
import { Kafka, logLevel, type Consumer } from 'kafkajs'
import { ANALYTICS_TOPIC, type AnalyticsEvent } from '@marketplace/contracts/marketplace'
import { infraEnv, waitFor } from '@marketplace/service-kit/testing'
import { startGateway, type RunningGateway } from '../test/helpers'

const sessionId = `test-${randomBytes(8).toString('hex')}`

function event(overrides: Partial<AnalyticsEvent> = {}): AnalyticsEvent {
  return {
    name: 'page_view',
    occurredAt: new Date().toISOString(),
    path: '/people',
    deviceType: 'desktop',
    sessionId,
    ...overrides,
  }
}

async function post(gateway: RunningGateway, body: unknown) {
  const response = await fetch(`${gateway.url}/api/analytics/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  }
}

describe('analytics intake (real Kafka)', () => {
  let gateway: RunningGateway
  let consumer: Consumer
  const received: Array<Record<string, unknown>> = []

  beforeAll(async () => {
    gateway = await startGateway({
      KAFKA_BROKERS: infraEnv().kafkaBrokers,
      ANALYTICS_RATE_LIMIT_MAX: '12',
    })
    const kafka = new Kafka({
      brokers: infraEnv().kafkaBrokers.split(','),
      logLevel: logLevel.NOTHING,
    })
    // The gateway creates the topic when it connects; subscribe once it exists.
    const admin = kafka.admin()
    await admin.connect()
    try {
      await waitFor(async () => (await admin.listTopics()).includes(ANALYTICS_TOPIC), {
        timeoutMs: 30_000,
        what: `the ${ANALYTICS_TOPIC} topic`,
      })
    } finally {
      await admin.disconnect()
    }
    consumer = kafka.consumer({ groupId: `analytics-test-${randomBytes(4).toString('hex')}` })
    await consumer.connect()
    await consumer.subscribe({ topic: ANALYTICS_TOPIC, fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ message }) => {
        const value = JSON.parse(message.value?.toString() ?? '{}') as Record<string, unknown>
        if (value.sessionId === sessionId) received.push({ ...value, key: message.key?.toString() })
      },
    })
  }, 60_000)

  afterAll(async () => {
    await consumer?.disconnect()
    await gateway?.app.close()
  })

  it('publishes a valid batch to analytics.events, keyed by session, with the arrival time', async () => {
    const answer = await post(gateway, {
      events: [
        event(),
        event({
          name: 'client_error',
          path: '/account',
          deviceType: 'mobile',
          props: { message: 'x is undefined', type: 'TypeError', stack: 'at App (App.tsx:1)' },
        }),
      ],
    })
    expect(answer.status).toBe(202)
    expect(answer.body).toEqual({ accepted: 2 })

    await waitFor(async () => received.length >= 2, {
      timeoutMs: 30_000,
      what: 'both events on the topic',
    })
    const error = received.find((value) => value.name === 'client_error')
    expect(error).toMatchObject({
      key: sessionId,
      path: '/account',
      deviceType: 'mobile',
      props: { message: 'x is undefined', type: 'TypeError', stack: 'at App (App.tsx:1)' },
    })
    expect(Date.parse(String(error?.receivedAt))).toBeGreaterThan(Date.now() - 60_000)
    expect(received.find((value) => value.name === 'page_view')).toMatchObject({ path: '/people' })

    const metrics = await (await fetch(`${gateway.url}/metrics`)).text()
    expect(metrics).toMatch(/analytics_events_total\{outcome="published",service="gateway"\} [2-9]/)
  }, 60_000)

  it.each([
    ['an unknown event name', { events: [event({ name: 'purchase' as never })] }, /name/],
    ['a session id that is too short', { events: [event({ sessionId: 'abc' })] }, /sessionId/],
    ['a path that is not a route', { events: [event({ path: 'https://evil.test/' })] }, /path/],
    ['a date that is not a date', { events: [event({ occurredAt: 'yesterday' })] }, /occurredAt/],
    ['an empty batch', { events: [] }, /events/],
    ['more than 20 events', { events: Array.from({ length: 21 }, () => event()) }, /events/],
    [
      'a props value that is too long',
      { events: [event({ props: { stack: 'x'.repeat(2001) } })] },
      /props/,
    ],
    [
      'more than 10 props',
      {
        events: [
          event({ props: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i])) }),
        ],
      },
      /props/,
    ],
  ])('refuses %s with 400 and says which field', async (_case, body, field) => {
    const answer = await post(gateway, body)
    expect(answer.status).toBe(400)
    expect(answer.body.code).toBe('VALIDATION_FAILED')
    expect(String(answer.body.message)).toMatch(field)
  })

  it('limits batches per client address with 429 and Retry-After', async () => {
    // Twelve allowed per window in this suite; the requests above (valid or not) used nine.
    let last = await post(gateway, { events: [event()] })
    for (let i = 0; i < 13 && last.status !== 429; i += 1)
      last = await post(gateway, { events: [event()] })
    expect(last.status).toBe(429)
    expect(String(last.body.message)).toMatch(/Too many requests/)
    expect(Number(last.retryAfter)).toBeGreaterThan(0)
  })
})

describe('analytics intake without a broker configured', () => {
  it('answers 503 with a message, and the rest of the gateway works', async () => {
    const gateway = await startGateway()
    try {
      const answer = await post(gateway, { events: [event()] })
      expect(answer.status).toBe(503)
      expect(answer.body).toEqual({
        code: 'ANALYTICS_UNAVAILABLE',
        message: 'Analytics are not configured here',
      })
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200)
    } finally {
      await gateway.app.close()
    }
  })
})
