import type { Db, MongoClient } from 'mongodb'
import { connectMongo, ensureIndexes } from '../plugins/mongodb'
import { testMongoUrl } from '../testing/infra-env'
import {
  PROCESSED_EVENTS_COLLECTION,
  PROCESSED_EVENTS_INDEXES,
  PROCESSED_EVENTS_RETENTION_MS,
  createProcessedEvents,
  sweepProcessedEvents,
} from './processed-events'

// The ledger on the real FerretDB of infra/local, which refuses TTL indexes: the declared
// expiry index is still created, and the sweep removes what is past the retention.
describe('the processed-events ledger', () => {
  let mongo: { client: MongoClient; db: Db }
  beforeAll(async () => {
    mongo = await connectMongo(testMongoUrl('service_kit_ledger'))
  })
  afterAll(async () => {
    await mongo.db.dropDatabase()
    await mongo.client.close()
  })

  it('declares an expiry longer than Kafka’s retention, and the index is created on FerretDB', async () => {
    const [expiry] = PROCESSED_EVENTS_INDEXES
    expect(expiry!.options!.expireAfterSeconds).toBeGreaterThan(7 * 24 * 60 * 60)
    await ensureIndexes(mongo.db, PROCESSED_EVENTS_INDEXES)
    // Twice is what every start does.
    await ensureIndexes(mongo.db, PROCESSED_EVENTS_INDEXES)
    const names = (await mongo.db.collection(PROCESSED_EVENTS_COLLECTION).indexes()).map(
      (index) => index.name,
    )
    expect(names).toContain('processed_events_expiry')
  })

  it('sweeps the records past the retention and keeps the rest', async () => {
    const ledger = createProcessedEvents(mongo.db, 'sweep-group')
    for (let i = 0; i < 7; i += 1) await ledger.remember(`old-${i}`, 'user.verified')
    await ledger.remember('recent', 'user.verified')
    const past = new Date(Date.now() - PROCESSED_EVENTS_RETENTION_MS - 60_000)
    await mongo.db
      .collection<{ _id: string }>(PROCESSED_EVENTS_COLLECTION)
      .updateMany({ _id: { $regex: /^sweep-group\|old-/ } }, { $set: { processedAt: past } })

    expect(await sweepProcessedEvents(mongo.db, { batchSize: 3 })).toBe(7)
    expect(await ledger.has('old-0')).toBe(false)
    expect(await ledger.has('old-6')).toBe(false)
    expect(await ledger.has('recent')).toBe(true)
    expect(await sweepProcessedEvents(mongo.db)).toBe(0)
  })
})
