import pino from 'pino'
import { Registry } from 'prom-client'
import type { Admin, Kafka, Producer } from 'kafkajs'
import { infraEnv } from '../testing/infra-env'
import { createKafka } from './kafka-client'
import { watchConsumerLag } from './consumer-lag'

// Real Kafka from infra/local: a topic with messages, a group that committed part of them.
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' })

describe('kafka_consumer_lag', () => {
  let kafka: Kafka
  let admin: Admin
  let producer: Producer
  const topic = `consumer-lag-test-${Date.now()}`
  const groupId = `consumer-lag-test-${Date.now()}`

  beforeAll(async () => {
    kafka = createKafka({ brokers: infraEnv().kafkaBrokers, clientId: 'lag-test', logger })
    admin = kafka.admin()
    await admin.connect()
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true })
    producer = kafka.producer()
    await producer.connect()
  })

  afterAll(async () => {
    await producer.disconnect()
    await admin.deleteGroups([groupId]).catch(() => undefined)
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined)
    await admin.disconnect()
  })

  it('reports, per partition, the messages after the group committed offset', async () => {
    // Five messages on partition 0, two on partition 1; the group committed 1 and nothing.
    await producer.send({
      topic,
      messages: [
        ...Array.from({ length: 5 }, (_, i) => ({ partition: 0, value: `p0-${i}` })),
        ...Array.from({ length: 2 }, (_, i) => ({ partition: 1, value: `p1-${i}` })),
      ],
    })
    await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '1' }] })

    const registry = new Registry()
    const lag = watchConsumerLag({
      kafka,
      metrics: registry,
      logger,
      groups: () => [{ groupId, topics: [topic] }],
    })
    try {
      const text = await registry.metrics()
      expect(text).toContain(
        `kafka_consumer_lag{consumer_group="${groupId}",topic="${topic}",partition="0"} 4`,
      )
      // No commit on partition 1: everything from its start counts.
      expect(text).toContain(
        `kafka_consumer_lag{consumer_group="${groupId}",topic="${topic}",partition="1"} 2`,
      )
    } finally {
      await lag.stop()
    }
  })
})
