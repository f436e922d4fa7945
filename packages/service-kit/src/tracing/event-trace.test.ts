import { SpanKind, context, trace } from '@opentelemetry/api'
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace'
import pino from 'pino'
import { Partitioners, type Consumer, type Kafka, type Producer } from 'kafkajs'
import type { Db, MongoClient } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { connectMongo } from '../plugins/mongodb'
import { OutboxRelay } from '../outbox/outbox-relay'
import { insertWithEvents } from '../outbox/outbox-fields'
import { infraEnv, testMongoUrl } from '../testing/infra-env'
import { waitFor } from '../testing/wait-for'
import { createKafka, ensureTopics } from '../events/kafka-client'
import { startEventConsumer } from '../events/event-consumer'
import { newEvent } from '../events/new-event'
import { startTracing } from './start-tracing'
import { setTracingOn } from './tracing-state'

// One user action through the outbox and Kafka, with the real relay and consumer helper on
// FerretDB and Kafka from infra/local: the request's span, the publish span and the consumer's
// process span must be one trace, and the message body must stay the envelope consumers know.
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' })
const CONSUMER_WAIT = { timeoutMs: 60_000 }
const exporter = new InMemorySpanExporter()

describe('trace context through the outbox and Kafka', () => {
  let mongo: { client: MongoClient; db: Db }
  let kafka: Kafka
  let producer: Producer
  let relay: OutboxRelay
  const consumers: Consumer[] = []
  const received: Array<{
    event: { id: string }
    value: Record<string, unknown>
    traceId?: string
  }> = []

  beforeAll(async () => {
    startTracing({
      serviceName: 'service-kit-test',
      endpoint: 'http://127.0.0.1:1',
      sampleRatio: 1,
      exporter,
      processor: (spans) => new SimpleSpanProcessor({ exporter: spans }),
    })
    mongo = await connectMongo(testMongoUrl('service_kit_tracing'))
    kafka = createKafka({ brokers: infraEnv().kafkaBrokers, clientId: 'service-kit-test', logger })
    await ensureTopics(kafka, [Topics.authUsers])
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner })
    await producer.connect()
    relay = new OutboxRelay({
      db: mongo.db,
      collections: ['accounts'],
      producer,
      logger,
      pollMs: 100,
    })
    relay.start()
    consumers.push(
      await startEventConsumer({
        kafka,
        producer,
        groupId: `tracing-test-${Date.now()}`,
        logger,
        fromBeginning: false,
        handlers: {
          'user.registered': async (event) => {
            received.push({
              event,
              value: event as unknown as Record<string, unknown>,
              traceId: trace.getActiveSpan()?.spanContext().traceId,
            })
          },
        },
      }),
    )
  })

  afterAll(async () => {
    setTracingOn(null)
    await relay.stop()
    await Promise.all(consumers.map((consumer) => consumer.disconnect()))
    await producer.disconnect()
    await mongo.db.dropDatabase()
    await mongo.client.close()
  })

  const registered = (userId: string) =>
    newEvent('user.registered', {
      aggregateId: userId,
      actorId: userId,
      data: {
        userId,
        email: `${userId}@example.com`,
        firstName: 'Ada',
        lastName: 'Lovelace',
        phoneNumber: '+15550100',
        dateOfBirth: '1990-01-01',
        interest: null,
        emailPreferences: false,
      },
    })

  it('continues the request trace in the publish and process spans', async () => {
    const tracer = trace.getTracer('test')
    const request = tracer.startSpan('POST /accounts', { kind: SpanKind.SERVER })
    const userId = `u-${Date.now()}`
    const event = context.with(trace.setSpan(context.active(), request), () => registered(userId))
    request.end()
    const traceId = request.spanContext().traceId
    expect((event as { traceparent?: string }).traceparent).toContain(traceId)

    await mongo.db
      .collection('accounts')
      .insertOne(insertWithEvents({ _id: userId } as never, [event]))
    relay.notify({ collection: 'accounts', id: userId, outbox: [event] })
    await waitFor(() => received.some((entry) => entry.event.id === event.id), CONSUMER_WAIT)

    const handled = received.find((entry) => entry.event.id === event.id)!
    // The handler ran inside the trace, and got the envelope without the stored context.
    expect(handled.traceId).toBe(traceId)
    expect(handled.value).not.toHaveProperty('traceparent')

    await waitFor(
      () =>
        exporter
          .getFinishedSpans()
          .some(
            (span) =>
              span.name === `${Topics.authUsers} process` && span.spanContext().traceId === traceId,
          ),
      CONSUMER_WAIT,
    )
    const spans = exporter
      .getFinishedSpans()
      .filter((span) => span.spanContext().traceId === traceId)
    const publish = spans.find((span) => span.name === `${Topics.authUsers} publish`)!
    const process = spans.find((span) => span.name === `${Topics.authUsers} process`)!
    expect(publish.kind).toBe(SpanKind.PRODUCER)
    expect(publish.parentSpanContext?.spanId).toBe(request.spanContext().spanId)
    expect(process.kind).toBe(SpanKind.CONSUMER)
    expect(process.parentSpanContext?.spanId).toBe(publish.spanContext().spanId)
  })

  it('adds nothing to an event when tracing is off', () => {
    setTracingOn(null)
    const request = trace.getTracer('test').startSpan('POST /accounts')
    const event = context.with(trace.setSpan(context.active(), request), () => registered('u-off'))
    request.end()
    expect(event).not.toHaveProperty('traceparent')
  })
})
