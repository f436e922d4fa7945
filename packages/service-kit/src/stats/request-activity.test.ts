import { MongoClient, type Db } from 'mongodb'
import { testMongoUrl } from '../testing/infra-env'
import { REQUEST_ACTIVITY_COLLECTION, createRequestActivity } from './request-activity'

const day = (iso: string) => new Date(`${iso}T12:00:00.000Z`)

describe('request activity buckets (real FerretDB)', () => {
  let client: MongoClient
  let db: Db
  // "Today" is fixed so the series crosses a month's end.
  const activity = () => createRequestActivity(db, () => new Date('2026-12-02T08:00:00.000Z'))

  beforeAll(async () => {
    client = await MongoClient.connect(testMongoUrl('kit_request_activity'))
    db = client.db()
  })
  afterAll(async () => {
    await db?.dropDatabase()
    await client?.close()
  })

  it('answers one zero-filled day per date, oldest first, ending today, across months', async () => {
    const store = activity()
    await store.count('ann', 'received', 'r1', day('2026-11-30'))
    await store.count('ann', 'received', 'r2', day('2026-11-30'))
    await store.count('ann', 'sent', 'r3', day('2026-12-02'))
    await store.count('ann', 'receivedAccepted', 'r1', day('2026-12-01'))
    await store.count('bob', 'received', 'r9', day('2026-12-01'))

    const series = await store.daily('ann', 4)
    expect(series).toEqual([
      { date: '2026-11-29', received: 0, sent: 0, receivedAccepted: 0, sentAccepted: 0 },
      { date: '2026-11-30', received: 2, sent: 0, receivedAccepted: 0, sentAccepted: 0 },
      { date: '2026-12-01', received: 0, sent: 0, receivedAccepted: 1, sentAccepted: 0 },
      { date: '2026-12-02', received: 0, sent: 1, receivedAccepted: 0, sentAccepted: 0 },
    ])
    // Addressed by _id: one bucket per user and month.
    const ids = await db
      .collection(REQUEST_ACTIVITY_COLLECTION)
      .find({ userId: 'ann' }, { projection: { _id: 1 } })
      .toArray()
    expect(ids.map((doc) => doc._id).sort()).toEqual(['ann:2026-11', 'ann:2026-12'])
    expect(await store.daily('ann', 90)).toHaveLength(90)
  })

  it('counts the same request once however often its event comes, also in parallel', async () => {
    const store = activity()
    const at = day('2026-12-02')
    await store.count('cy', 'received', 'r1', at)
    await store.count('cy', 'received', 'r1', at)
    // Two first counts of a new bucket at once: one creates it, the other retries.
    await Promise.all([
      store.count('cy', 'sent', 'r2', at),
      store.count('cy', 'sent', 'r2', at),
      store.count('cy', 'sent', 'r3', at),
      store.count('dee', 'sent', 'r4', at),
      store.count('dee', 'sent', 'r5', at),
    ])
    expect((await store.daily('cy', 1))[0]).toMatchObject({ received: 1, sent: 2 })
    expect((await store.daily('dee', 1))[0]).toMatchObject({ sent: 2 })
  })

  it("forgets every bucket of a deleted user and no one else's", async () => {
    const store = activity()
    await store.count('eve', 'received', 'r1', day('2026-11-10'))
    await store.count('eve', 'sent', 'r2', day('2026-12-01'))
    await store.count('fay', 'sent', 'r1', day('2026-12-01'))
    await store.forgetUser('eve')
    const buckets = db.collection(REQUEST_ACTIVITY_COLLECTION)
    expect(await buckets.countDocuments({ userId: 'eve' })).toBe(0)
    expect((await store.daily('eve', 30)).every((entry) => entry.received + entry.sent === 0)).toBe(
      true,
    )
    expect((await store.daily('fay', 2))[0]).toMatchObject({ sent: 1 })
  })
})
