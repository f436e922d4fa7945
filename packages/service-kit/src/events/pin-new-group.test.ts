import { randomUUID } from 'node:crypto'
import pino from 'pino'
import type { Consumer, Kafka, Producer } from 'kafkajs'
import { infraEnv } from '../testing/infra-env'
import { waitFor } from '../testing/wait-for'
import { CONSUMER_MAX_WAIT_MS, createKafka, ensureTopics } from './kafka-client'
import { pinNewGroup } from './pin-new-group'

// Real Kafka from infra/local: where a pinned group's first member starts reading.
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' })

describe('pinning a new consumer group', () => {
  const topic = `pin-test-${randomUUID().slice(0, 8)}`
  let kafka: Kafka
  let producer: Producer
  const consumers: Consumer[] = []

  beforeAll(async () => {
    kafka = createKafka({ brokers: infraEnv().kafkaBrokers, clientId: 'pin-test', logger })
    await ensureTopics(kafka, [topic])
    producer = kafka.producer()
    await producer.connect()
  })

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.disconnect()))
    await producer.disconnect()
  })

  // One key, one partition: the order read is the order published.
  const publish = (value: string) => producer.send({ topic, messages: [{ key: 'one', value }] })

  /** A member of `groupId` that reads from the group's committed offsets, as services do. */
  async function readAs(groupId: string): Promise<string[]> {
    const seen: string[] = []
    const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: CONSUMER_MAX_WAIT_MS })
    consumers.push(consumer)
    await consumer.connect()
    await consumer.subscribe({ topics: [topic], fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ message }) => void seen.push(String(message.value)),
    })
    return seen
  }

  it('at the end: skips what came before the pin, reads what came after it, even before the join', async () => {
    await publish('before the pin')
    const groupId = `pin-end-${randomUUID()}`
    await pinNewGroup(kafka, groupId, [topic], 'end')
    await publish('between the pin and the join')
    const seen = await readAs(groupId)
    await publish('after the join')
    await waitFor(() => seen.length >= 2)
    expect(seen).toEqual(['between the pin and the join', 'after the join'])
  })

  it('at an instant: starts at the first event published at or after it', async () => {
    await publish('long before')
    // The broker stamps each message with its own clock: the instant is taken after the
    // earlier send has been acknowledged and a little later, so no stamp can tie with it.
    await new Promise((resolve) => setTimeout(resolve, 20))
    const since = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 20))
    await publish('just after the instant')
    await publish('later still')
    const groupId = `pin-since-${randomUUID()}`
    await pinNewGroup(kafka, groupId, [topic], since)
    const seen = await readAs(groupId)
    await waitFor(() => seen.length >= 2)
    expect(seen).toEqual(['just after the instant', 'later still'])
  })

  it('a group that has committed keeps its place: pinning again moves nothing', async () => {
    const groupId = `pin-kept-${randomUUID()}`
    await pinNewGroup(kafka, groupId, [topic], 'end')
    const first = await readAs(groupId)
    await publish('read by the first member')
    await waitFor(() => first.length >= 1)
    await consumers.pop()!.disconnect()

    await publish('published while the group had no member')
    await pinNewGroup(kafka, groupId, [topic], 'end')
    const second = await readAs(groupId)
    await waitFor(() => second.length >= 1)
    expect(second).toEqual(['published while the group had no member'])
  })
})
