import { randomUUID } from 'node:crypto'
import pino from 'pino'
import { Partitioners, type Consumer, type Kafka, type KafkaMessage, type Producer } from 'kafkajs'
import type { Db, MongoClient } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { connectMongo, ensureIndexes } from '../plugins/mongodb'
import { OutboxRelay } from '../outbox/outbox-relay'
import { OUTBOX_PENDING_INDEX, insertWithEvents, updateWithEvents } from '../outbox/outbox-fields'
import { infraEnv, testMongoUrl } from '../testing/infra-env'
import { waitFor } from '../testing/wait-for'
import { createKafka, DEAD_LETTER_TOPIC, ensureTopics } from './kafka-client'
import { startEventConsumer } from './event-consumer'
import { newEvent } from './new-event'

// Real FerretDB and real Kafka from infra/local: the outbox, the relay and the consumer
// helper together, as every service uses them.
// A cold broker (first run on a new machine) takes a while to form a consumer group.
const CONSUMER_WAIT = { timeoutMs: 60_000 }
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' })

describe('outbox relay and idempotent consumer', () => {
  let mongo: { client: MongoClient; db: Db }
  let kafka: Kafka
  let producer: Producer
  let relay: OutboxRelay
  const consumers: Consumer[] = []

  beforeAll(async () => {
    mongo = await connectMongo(testMongoUrl('service_kit_outbox'))
    await ensureIndexes(mongo.db, [
      {
        collection: 'accounts',
        ...OUTBOX_PENDING_INDEX,
        options: { name: OUTBOX_PENDING_INDEX.name },
      },
    ])
    kafka = createKafka({ brokers: infraEnv().kafkaBrokers, clientId: 'service-kit-test', logger })
    await ensureTopics(kafka, [Topics.authUsers, DEAD_LETTER_TOPIC])
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner })
    await producer.connect()
    relay = new OutboxRelay({
      db: mongo.db,
      collections: ['accounts'],
      producer,
      logger,
      pollMs: 100,
    })
  })

  afterAll(async () => {
    await relay.stop()
    await Promise.all(consumers.map((consumer) => consumer.disconnect()))
    await producer.disconnect()
    await mongo.db.dropDatabase()
    await mongo.client.close()
  })

  /**
   * A consumer whose effect is NOT naturally idempotent ($inc), so a second application
   * shows. Effects are counted per group: every group of this file reads the same topic.
   */
  async function countingConsumer(groupId: string, since?: number) {
    const effects = mongo.db.collection<{ _id: string; applied: number }>('effects')
    consumers.push(
      await startEventConsumer({
        kafka,
        producer,
        groupId,
        logger,
        db: mongo.db,
        since,
        handlers: {
          'user.verified': async (event) => {
            await effects.updateOne(
              { _id: `${groupId}|${event.data.userId}` },
              { $inc: { applied: 1 } },
              { upsert: true },
            )
          },
        },
      }),
    )
    return async (userId: string) =>
      (await effects.findOne({ _id: `${groupId}|${userId}` }))?.applied ?? 0
  }

  it('publishes events stored with a document, then removes them from it', async () => {
    const userId = randomUUID()
    const event = newEvent('user.verified', {
      aggregateId: userId,
      actorId: userId,
      data: { userId },
    })
    await mongo.db
      .collection('accounts')
      .insertOne(insertWithEvents({ _id: userId as never, email: 'a@b.co' }, [event]))

    expect(await relay.drainOnce()).toBe(1)
    const stored = await mongo.db.collection('accounts').findOne({ _id: userId as never })
    expect(stored?.outbox).toBeUndefined()
    expect(stored?.outboxPending).toBeUndefined()
    expect(stored?.email).toBe('a@b.co')
    expect(await relay.drainOnce()).toBe(0)
  })

  it('keeps events added to a document after the relay read it', async () => {
    const userId = randomUUID()
    const first = newEvent('user.verified', {
      aggregateId: userId,
      actorId: null,
      data: { userId },
    })
    const second = newEvent('user.verified', {
      aggregateId: userId,
      actorId: null,
      data: { userId },
    })
    const accounts = mongo.db.collection<{ _id: string; outbox?: unknown[]; outboxPending?: true }>(
      'accounts',
    )
    await accounts.insertOne(insertWithEvents({ _id: userId }, [first]))
    // Simulate the race: the relay published `first`, then a write appended `second`.
    await accounts.updateOne(
      { _id: userId },
      updateWithEvents({ $set: { touched: true } } as never, [second]),
    )
    await (
      relay as unknown as { clear(c: string, id: unknown, e: unknown[]): Promise<void> }
    ).clear('accounts', userId, [first])
    const stored = await accounts.findOne({ _id: userId })
    expect(stored?.outbox).toHaveLength(1)
    expect(stored?.outboxPending).toBe(true)
    expect(await relay.drainOnce()).toBe(1)
  })

  it('starts a new group at an instant (KAFKA_NEW_GROUPS_SINCE): what came before is not its history', async () => {
    // One key, so both land on one partition in order: a group that reads the later one has
    // passed the earlier one's place, and would have applied it had it started before it.
    const key = randomUUID()
    const publish = (userId: string) =>
      producer.send({
        topic: Topics.authUsers,
        messages: [
          {
            key,
            value: JSON.stringify(
              newEvent('user.verified', { aggregateId: userId, actorId: userId, data: { userId } }),
            ),
          },
        ],
      })
    const before = randomUUID()
    const after = randomUUID()
    await publish(before)
    // The broker stamps nothing: kafkajs sets each message's time when it sends it.
    await new Promise((resolve) => setTimeout(resolve, 20))
    const since = Date.now()
    await publish(after)
    const fromInstant = await countingConsumer(`test-since-${randomUUID()}`, since)
    const fromBeginning = await countingConsumer(`test-beginning-${randomUUID()}`)
    await waitFor(
      async () => (await fromInstant(after)) === 1 && (await fromBeginning(after)) === 1,
      {
        ...CONSUMER_WAIT,
        what: 'both groups to read the event after the instant',
      },
    )
    expect(await fromBeginning(before)).toBe(1)
    expect(await fromInstant(before)).toBe(0)
  })

  it('applies an event once even when Kafka delivers it twice', async () => {
    const userId = randomUUID()
    const applied = await countingConsumer(`test-dedupe-${randomUUID()}`)
    const event = newEvent('user.verified', {
      aggregateId: userId,
      actorId: userId,
      data: { userId },
    })
    await mongo.db
      .collection('accounts')
      .insertOne(insertWithEvents({ _id: userId as never }, [event]))
    relay.start()
    relay.notify()
    await waitFor(async () => (await applied(userId)) === 1, {
      ...CONSUMER_WAIT,
      what: 'the first delivery',
    })

    // The same envelope again, as a relay that crashed before clearing its outbox would send it.
    await producer.send({
      topic: Topics.authUsers,
      messages: [{ key: userId, value: JSON.stringify(event) }],
    })
    const marker = randomUUID()
    await producer.send({
      topic: Topics.authUsers,
      messages: [
        {
          key: userId,
          value: JSON.stringify(
            newEvent('user.verified', {
              aggregateId: userId,
              actorId: null,
              data: { userId: marker },
            }),
          ),
        },
      ],
    })
    // Same partition (same key), so once the marker is applied the duplicate was seen first.
    await waitFor(async () => (await applied(marker)) === 1, {
      ...CONSUMER_WAIT,
      what: 'the marker event',
    })
    expect(await applied(userId)).toBe(1)
  })

  it('dead-letters a malformed event with the reason and keeps consuming', async () => {
    const groupId = `test-dlq-${randomUUID()}`
    const deadLetters: KafkaMessage[] = []
    const watcher = kafka.consumer({ groupId: `${groupId}-watcher` })
    await watcher.connect()
    // From the beginning, filtered by this test's unique key: no race with the group join.
    await watcher.subscribe({ topic: DEAD_LETTER_TOPIC, fromBeginning: true })
    await watcher.run({ eachMessage: async ({ message }) => void deadLetters.push(message) })
    consumers.push(watcher)

    const applied = await countingConsumer(groupId)
    const key = randomUUID()
    const userId = randomUUID()
    await producer.send({
      topic: Topics.authUsers,
      messages: [
        { key, value: 'this is not json' },
        {
          key,
          value: JSON.stringify({
            ...newEvent('user.verified', { aggregateId: key, actorId: null, data: { userId } }),
            data: { userId: 42 },
          }),
        },
        {
          key,
          value: JSON.stringify(
            newEvent('user.verified', { aggregateId: key, actorId: null, data: { userId } }),
          ),
        },
      ],
    })
    await waitFor(async () => (await applied(userId)) === 1, {
      ...CONSUMER_WAIT,
      what: 'the valid event after the bad ones',
    })
    await waitFor(
      () =>
        deadLetters.filter(
          (m) => m.key?.toString() === key && m.headers?.['consumer-group']?.toString() === groupId,
        ).length === 2,
      { ...CONSUMER_WAIT, what: 'two dead letters' },
    )
    const reasons = deadLetters
      .filter((m) => m.key?.toString() === key)
      .map((m) => m.headers?.reason?.toString())
    expect(reasons).toEqual(
      expect.arrayContaining([
        'value is not JSON',
        expect.stringContaining('data of user.verified invalid'),
      ]),
    )
  })
})
