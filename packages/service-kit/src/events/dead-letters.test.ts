import { randomUUID } from 'node:crypto'
import pino from 'pino'
import { Partitioners, type Consumer, type Kafka, type KafkaMessage, type Producer } from 'kafkajs'
import type { Db, MongoClient } from 'mongodb'
import { Registry } from 'prom-client'
import { Topics, type DomainEvent } from '@marketplace/contracts/events'
import { connectMongo } from '../plugins/mongodb'
import { infraEnv, testMongoUrl } from '../testing/infra-env'
import { waitFor } from '../testing/wait-for'
import { deadLetterTopicOf, redriveDeadLetters } from './dead-letters'
import { startEventConsumer } from './event-consumer'
import { createKafka, ensureTopics } from './kafka-client'
import { newEvent } from './new-event'

// Real Kafka and FerretDB from infra/local: a handler that always fails on one
// event no longer blocks its partition; the event goes to the group's dead-letter topic and
// comes back, to that group alone, once the cause is fixed.
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' })

describe('a handler that keeps failing', () => {
  let mongo: { client: MongoClient; db: Db }
  let kafka: Kafka
  let producer: Producer
  const consumers: Consumer[] = []

  beforeAll(async () => {
    mongo = await connectMongo(testMongoUrl('service_kit_dead_letters'))
    kafka = createKafka({ brokers: infraEnv().kafkaBrokers, clientId: 'service-kit-test', logger })
    await ensureTopics(kafka, [Topics.authUsers])
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner })
    await producer.connect()
  })

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.disconnect()))
    await producer.disconnect()
    await mongo.db.dropDatabase()
    await mongo.client.close()
  })

  async function readAll(topic: string, count: number): Promise<KafkaMessage[]> {
    const reader = kafka.consumer({ groupId: `test-reader-${randomUUID()}` })
    const messages: KafkaMessage[] = []
    await reader.connect()
    await reader.subscribe({ topics: [topic], fromBeginning: true })
    await reader.run({ eachMessage: async ({ message }) => void messages.push(message) })
    try {
      await waitFor(() => messages.length >= count, { timeoutMs: 60_000, what: `${topic}` })
      return messages
    } finally {
      await reader.disconnect()
    }
  }

  it('dead-letters the event after its retries, handles the later ones, and a re-drive handles it once fixed', async () => {
    const prefix = `test-dead-letters-${randomUUID()}-`
    const groupId = `${prefix}failing`
    const aggregateId = randomUUID()
    const event = (n: number) =>
      newEvent('user.verified', { aggregateId, actorId: aggregateId, data: { userId: `${n}` } })
    const [bad, later, last] = [event(0), event(1), event(2)]
    let fixed = false
    const handled: string[] = []
    const otherGroupHandled: string[] = []
    const metrics = new Registry()
    const start = (id: string, handle: (e: DomainEvent<'user.verified'>) => Promise<void>) =>
      startEventConsumer({
        kafka,
        producer,
        groupId: id,
        logger,
        db: mongo.db,
        fromBeginning: false,
        metrics,
        retry: { attempts: 3, initialDelayMs: 50, maxDelayMs: 200 },
        handlers: { 'user.verified': handle },
      })
    // The topic is the shared broker's: other suites running beside this one (CI runs
    // packages side by side) publish their own sign-ups to it. Only this test's events count.
    const ours = (e: DomainEvent<'user.verified'>) => e.aggregateId === aggregateId
    consumers.push(
      await start(groupId, async (e) => {
        if (!ours(e)) return
        if (e.id === bad.id && !fixed) throw new Error('the handler cannot take this event yet')
        handled.push(e.id)
      }),
      // Another group on the same topic, whose handler works: a re-drive is not for it.
      await start(`${prefix}other`, async (e) => void (ours(e) && otherGroupHandled.push(e.id))),
    )

    // One key: one partition, in this order.
    await producer.send({
      topic: Topics.authUsers,
      messages: [bad, later, last].map((e) => ({ key: aggregateId, value: JSON.stringify(e) })),
    })
    await waitFor(() => handled.includes(last.id), {
      timeoutMs: 60_000,
      what: 'the events after the failing one to be handled',
    })
    expect(handled).toEqual([later.id, last.id])

    const [letter] = await readAll(deadLetterTopicOf(groupId), 1)
    expect(JSON.parse(letter!.value!.toString()).id).toBe(bad.id)
    const header = (name: string) => String(letter!.headers![name])
    expect(header('error')).toBe('the handler cannot take this event yet')
    expect(header('event-id')).toBe(bad.id)
    expect(header('attempts')).toBe('3')
    expect(header('original-topic')).toBe(Topics.authUsers)
    expect(header('consumer-group')).toBe(groupId)
    expect(await metrics.metrics()).toContain(
      `events_dead_lettered_total{consumer_group="${groupId}",type="user.verified"} 1`,
    )

    fixed = true
    expect(await redriveDeadLetters({ kafka, groupId })).toBe(1)
    await waitFor(() => handled.includes(bad.id), {
      timeoutMs: 60_000,
      what: 'the re-driven event to be handled',
    })
    // Nothing is sent twice: a second re-drive finds nothing new.
    expect(await redriveDeadLetters({ kafka, groupId })).toBe(0)
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    expect(handled.filter((id) => id === bad.id)).toHaveLength(1)
    expect(otherGroupHandled.sort()).toEqual([bad.id, later.id, last.id].sort())
  })
})
