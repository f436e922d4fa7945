import { randomBytes } from 'node:crypto'
import { Kafka, logLevel } from 'kafkajs'
import { ROLES } from '@marketplace/contracts/marketplace'
import { infraEnv, startServiceTestApp } from '@marketplace/service-kit/testing'
import { buildAnalyticsApp } from '../app'
import { readConfig } from '../config'

export const EVENT_WAIT_MS = 60_000

export const ADMIN_ROLES = [ROLES.User, ROLES.Admin]
export const EDITOR_ROLES = [ROLES.User, ROLES.Editor]

/** An event as the gateway publishes it, arriving now unless told otherwise. */
export function receivedEvent(overrides: Record<string, unknown> = {}) {
  const now = new Date().toISOString()
  return {
    name: 'page_view',
    occurredAt: now,
    receivedAt: now,
    path: '/',
    deviceType: 'desktop',
    sessionId: 'session-0001',
    ...overrides,
  }
}

/**
 * The analytics app as server.ts builds it, against the real servers, reading a topic of
 * its own (other test files, and the gateway's tests, publish to analytics.events at the same
 * time), with a producer that publishes to that topic as the gateway does.
 */
export async function startAnalyticsTestApp(name: string, env: Record<string, string> = {}) {
  const topic = env.ANALYTICS_TOPIC ?? `analytics.test-${name}-${randomBytes(4).toString('hex')}`
  const service = await startServiceTestApp(name, (base) =>
    buildAnalyticsApp(readConfig({ ...base, ANALYTICS_TOPIC: topic, ...env })),
  )
  // The consumer creates the topic and joins before anything is published to it.
  await service.app.analyticsConsumer.joined
  const kafka = new Kafka({
    brokers: infraEnv().kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
  })
  const producer = kafka.producer({ allowAutoTopicCreation: false })
  await producer.connect()

  return {
    ...service,
    topic,
    /** Publishes events as the gateway does (keyed by session), or raw values when strings. */
    async publish(events: ReadonlyArray<Record<string, unknown> | string>, partition?: number) {
      await producer.send({
        topic,
        messages: events.map((event) =>
          typeof event === 'string'
            ? { value: event, partition }
            : {
                key: String(event.sessionId ?? 'session'),
                value: JSON.stringify(event),
                partition,
              },
        ),
      })
    },
    async stop() {
      await producer.disconnect()
      await service.stop()
    },
  }
}

export type AnalyticsTestApp = Awaited<ReturnType<typeof startAnalyticsTestApp>>
