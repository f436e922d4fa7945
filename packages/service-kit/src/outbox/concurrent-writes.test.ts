import pino from 'pino'
import type { Producer } from 'kafkajs'
import type { Db, MongoClient } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import { connectMongo } from '../plugins/mongodb'
import { newEvent } from '../events/new-event'
import { testMongoUrl } from '../testing/infra-env'
import { insertWithEvents, updateWithEvents, type OutboxFields } from './outbox-fields'
import { OutboxRelay } from './outbox-relay'

// The outbox and every compare-and-set in the services assume what MongoDB guarantees: one
// write to one document is atomic. FerretDB v1 alone breaks that (it reads, changes in Go
// and writes back); infra/local puts a write serializer in front of it. These run against
// the real local server and fail on a server that loses concurrent updates.

interface Counter {
  _id: string
  n: number
  version: string
}

interface RequestDoc extends OutboxFields {
  _id: string
  status: string
}

describe('single-document writes on the local MongoDB-protocol server', () => {
  let mongo: { client: MongoClient; db: Db }

  beforeAll(async () => {
    mongo = await connectMongo(testMongoUrl('service_kit_concurrent_writes'))
  })

  afterAll(async () => {
    await mongo.db.dropDatabase()
    await mongo.client.close()
  })

  it('applies 50 parallel $inc of one document, none lost', async () => {
    const counters = mongo.db.collection<Counter>('counters')
    await counters.insertOne({ _id: 'inc', n: 0, version: 'v0' })
    await Promise.all(
      Array.from({ length: 50 }, () => counters.updateOne({ _id: 'inc' }, { $inc: { n: 1 } })),
    )
    expect((await counters.findOne({ _id: 'inc' }))?.n).toBe(50)
  })

  it('lets exactly one of 10 parallel compare-and-set updates win', async () => {
    const counters = mongo.db.collection<Counter>('counters')
    await counters.insertOne({ _id: 'cas', n: 0, version: 'v0' })
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        counters.findOneAndUpdate(
          { _id: 'cas', version: 'v0' },
          { $set: { version: `v${i + 1}` } },
          { returnDocument: 'after' },
        ),
      ),
    )
    expect(results.filter((doc) => doc !== null)).toHaveLength(1)
  })

  it('keeps a change written while the relay clears the same document', async () => {
    const requests = mongo.db.collection<RequestDoc>('requests')
    const published: DomainEvent[] = []
    // The broker is a port here: what matters is the database, and a recording producer
    // shows which events left.
    const producer = {
      async sendBatch(batch: { topicMessages: Array<{ messages: Array<{ value: string }> }> }) {
        for (const topic of batch.topicMessages)
          for (const message of topic.messages) published.push(JSON.parse(message.value))
      },
    } as unknown as Producer
    const relay = new OutboxRelay({
      db: mongo.db,
      collections: ['requests'],
      producer,
      logger: pino({ level: 'silent' }),
      pollMs: 60_000,
    })

    const event = (id: string) =>
      newEvent('user.deleted', { aggregateId: id, actorId: id, data: { userId: id } })

    for (let round = 0; round < 20; round += 1) {
      const id = `r${round}`
      await requests.insertOne(
        insertWithEvents<RequestDoc>({ _id: id, status: 'pending' }, [event(id)]),
      )
      const decided = event(id)
      await Promise.all([
        relay.drainOnce(),
        requests.findOneAndUpdate(
          { _id: id },
          updateWithEvents<RequestDoc>({ $set: { status: 'accepted' } }, [decided]),
        ),
      ])
      const stored = await requests.findOne({ _id: id })
      expect(stored?.status).toBe('accepted')
      // The second event either left already or still waits in the document: never lost.
      const waiting = (stored?.outbox ?? []).map((e) => e.id)
      expect([...published.map((e) => e.id), ...waiting]).toContain(decided.id)
    }
  })
})
