import { randomBytes } from 'node:crypto'
import { Kafka, logLevel, type Consumer } from 'kafkajs'
import type { DomainEvent } from '@marketplace/contracts/events'
import { CONSUMER_MAX_WAIT_MS, ensureTopics } from '../events/kafka-client'
import { infraEnv } from './infra-env'
import { waitFor } from './wait-for'

/**
 * Reads a topic with a group of its own and keeps every event published after it joined,
 * so a test can assert what a service really published (not what it meant to). Start it
 * before the action under test.
 */
export async function startEventProbe(topic: string) {
  const kafka = new Kafka({
    clientId: 'test-probe',
    brokers: infraEnv().kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
  })
  const consumer: Consumer = kafka.consumer({
    groupId: `probe-${randomBytes(6).toString('hex')}`,
    maxWaitTimeInMs: CONSUMER_MAX_WAIT_MS,
  })
  const seen: DomainEvent[] = []
  const joined = new Promise((resolve) => consumer.on(consumer.events.GROUP_JOIN, resolve))
  // Where the topic ends now, read before anything else: a new group "from the end" would
  // take the end as of its first fetch, after joining, and miss what was published between
  // this call returning and that fetch (a busy CI machine made a test wait for it in vain).
  // On a fresh broker the topic may not exist yet (the service under test creates its topics
  // when it connects, after the probe started): create it as the services do.
  await ensureTopics(kafka, [topic])
  const admin = kafka.admin()
  await admin.connect()
  const ends = await admin.fetchTopicOffsets(topic)
  await admin.disconnect()
  await consumer.connect()
  await consumer.subscribe({ topic, fromBeginning: false })
  await consumer.run({
    eachMessage: async ({ message }) => {
      if (message.value) seen.push(JSON.parse(message.value.toString()) as DomainEvent)
    },
  })
  const seekToEnds = () => {
    for (const { partition, high } of ends) consumer.seek({ topic, partition, offset: high })
  }
  try {
    seekToEnds()
  } catch {
    // The first group on a fresh broker: its coordinator (the offsets topic) is still being
    // made and the consumer restarts, so there is no group to seek yet. Seek once it joined;
    // what it read meanwhile is read again from the ends, so it is dropped first.
    await joined
    seen.length = 0
    seekToEnds()
  }
  await joined
  return {
    events: seen,
    waitForEvent(type: string, aggregateId: string, timeoutMs = 30_000) {
      return waitFor(
        () => seen.find((event) => event.type === type && event.aggregateId === aggregateId),
        { timeoutMs, what: `${type} for ${aggregateId}` },
      )
    },
    stop: () => consumer.disconnect(),
  }
}

/** Publishes an event as another service would (the envelope, keyed by aggregate id). */
export async function publishEvent(topic: string, event: DomainEvent): Promise<void> {
  const kafka = new Kafka({
    clientId: 'test-publisher',
    brokers: infraEnv().kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
  })
  const producer = kafka.producer()
  await producer.connect()
  await producer.send({
    topic,
    messages: [{ key: event.aggregateId, value: JSON.stringify(event) }],
  })
  await producer.disconnect()
}
