import { Registry } from 'prom-client'
import type { Db, MongoClient } from 'mongodb'
import { connectMongo } from '../plugins/mongodb'
import { testMongoUrl } from '../testing/infra-env'
import { newEvent } from '../events/new-event'
import { insertWithEvents } from './outbox-fields'
import { watchOutboxBacklog } from './outbox-backlog'

// Real FerretDB from infra/local: documents whose events no relay has published.
describe('outbox backlog metrics', () => {
  let mongo: { client: MongoClient; db: Db }

  beforeAll(async () => {
    mongo = await connectMongo(testMongoUrl('service_kit_outbox_backlog'))
  })

  afterAll(async () => {
    await mongo.db.dropDatabase()
    await mongo.client.close()
  })

  const event = (id: string, occurredAt: Date) => ({
    ...newEvent('post.deleted', {
      aggregateId: id,
      actorId: 'u1',
      data: { postId: id, ownerId: 'u1', title: 'A job' },
    }),
    occurredAt: occurredAt.toISOString(),
  })

  it('count the pending documents and age the oldest waiting event', async () => {
    const now = Date.now()
    await mongo.db
      .collection('posts')
      .insertMany([
        insertWithEvents({ _id: 'a' } as never, [event('a', new Date(now - 90_000))]),
        insertWithEvents({ _id: 'b' } as never, [event('b', new Date(now - 5_000))]),
        { _id: 'c' } as never,
      ])
    const registry = new Registry()
    watchOutboxBacklog({ db: mongo.db, collections: ['posts', 'empty'], metrics: registry })

    const text = await registry.metrics()
    expect(text).toContain('outbox_pending_documents{collection="posts"} 2')
    expect(text).toContain('outbox_pending_documents{collection="empty"} 0')
    expect(text).toContain('outbox_oldest_pending_age_seconds{collection="empty"} 0')
    const age = Number(
      /outbox_oldest_pending_age_seconds\{collection="posts"\} ([\d.]+)/.exec(text)?.[1],
    )
    expect(age).toBeGreaterThanOrEqual(90)
    expect(age).toBeLessThan(150)
  })
})
