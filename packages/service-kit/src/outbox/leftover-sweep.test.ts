import pino from 'pino'
import type { Producer } from 'kafkajs'
import type { Db, MongoClient } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import { connectMongo } from '../plugins/mongodb'
import { newEvent } from '../events/new-event'
import { testMongoUrl } from '../testing/infra-env'
import { waitFor } from '../testing/wait-for'
import { insertWithEvents, type OutboxFields } from './outbox-fields'
import { OutboxRelay } from './outbox-relay'

// The periodic sweep is for the leftovers of writers that crashed. It must not take a live
// writer's events in the moment between its insert and its own publish: notifications lists
// a notice in that moment, and a push sent before it would make the browser read a page
// that lacks the notice. Real local database; the broker is a recording producer, since what
// matters here is which events left and when.

interface NoticeDoc extends OutboxFields {
  _id: string
}

describe('outbox relay: the periodic sweep leaves young events to their writers', () => {
  let mongo: { client: MongoClient; db: Db }
  const published: Array<{ id: string; at: number }> = []
  const producer = {
    async sendBatch(batch: { topicMessages: Array<{ messages: Array<{ value: string }> }> }) {
      for (const topic of batch.topicMessages)
        for (const message of topic.messages)
          published.push({ id: (JSON.parse(message.value) as DomainEvent).id, at: Date.now() })
    },
  } as unknown as Producer
  const event = (id: string) =>
    newEvent('user.deleted', { aggregateId: id, actorId: id, data: { userId: id } })
  const relays: OutboxRelay[] = []
  const relay = (collection: string) => {
    const started = new OutboxRelay({
      db: mongo.db,
      collections: [collection],
      producer,
      logger: pino({ level: 'silent' }),
      pollMs: 200,
      leftoverAgeMs: 1500,
    })
    relays.push(started)
    return started
  }

  beforeAll(async () => {
    mongo = await connectMongo(testMongoUrl('service_kit_leftover_sweep'))
  })
  afterAll(async () => {
    await Promise.all(relays.map((started) => started.stop()))
    await mongo.db.dropDatabase()
    await mongo.client.close()
  })

  it("leaves a writer's fresh event through several sweeps, then takes it once it is old", async () => {
    const notices = mongo.db.collection<NoticeDoc>('young_notices')
    const sweeper = relay('young_notices')
    sweeper.start()
    // The start-up sweep has run on an empty collection; now a writer stores an event and,
    // as if it crashed, never publishes it.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const stored = event('n1')
    const storedAt = Date.now()
    await notices.insertOne(insertWithEvents<NoticeDoc>({ _id: 'n1' }, [stored]))

    // Sweeps run every 200 ms; for the first second none of them may take it.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(published.map((entry) => entry.id)).not.toContain(stored.id)
    expect((await notices.findOne({ _id: 'n1' }))?.outboxPending).toBe(true)

    // Once older than 1.5 s it is a crashed writer's leftover: the next sweep publishes it.
    await waitFor(async () => published.some((entry) => entry.id === stored.id), {
      timeoutMs: 5000,
      what: 'the leftover published',
    })
    const sent = published.find((entry) => entry.id === stored.id)!
    expect(sent.at - storedAt).toBeGreaterThanOrEqual(1400)
    await waitFor(async () => (await notices.findOne({ _id: 'n1' }))?.outboxPending === undefined, {
      timeoutMs: 2000,
      what: 'the outbox cleared',
    })
    expect(published.filter((entry) => entry.id === stored.id)).toHaveLength(1)
  })

  it('publishes a named write at once, whatever its age', async () => {
    const notices = mongo.db.collection<NoticeDoc>('named_notices')
    const writer = relay('named_notices')
    writer.start()
    const stored = event('n2')
    await notices.insertOne(insertWithEvents<NoticeDoc>({ _id: 'n2' }, [stored]))
    const storedAt = Date.now()
    writer.notify({ collection: 'named_notices', id: 'n2', outbox: [stored] })
    await waitFor(async () => published.some((entry) => entry.id === stored.id), {
      timeoutMs: 1000,
      what: 'the named event published',
    })
    expect(published.find((entry) => entry.id === stored.id)!.at - storedAt).toBeLessThan(1000)
  })

  it('takes young events too when asked for everything (start-up, shutdown, after a failure)', async () => {
    const notices = mongo.db.collection<NoticeDoc>('drained_notices')
    const drainer = relay('drained_notices')
    const stored = event('n3')
    await notices.insertOne(insertWithEvents<NoticeDoc>({ _id: 'n3' }, [stored]))
    expect(await drainer.drainOnce()).toBe(1)
    expect(published.map((entry) => entry.id)).toContain(stored.id)
    // With the age limit a young document is left, and the sweep ends (no endless retry).
    const young = event('n4')
    await notices.insertOne(insertWithEvents<NoticeDoc>({ _id: 'n4' }, [young]))
    expect(await drainer.drainOnce({ leaveYoungerThanMs: 60_000 })).toBe(0)
    expect((await notices.findOne({ _id: 'n4' }))?.outboxPending).toBe(true)
  })
})
