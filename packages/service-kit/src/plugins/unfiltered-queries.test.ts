import type { Db, MongoClient } from 'mongodb'
import { testMongoUrl } from '../testing/infra-env'
import { connectMongo } from './mongodb'

// Operators' tools (a shell's `db.c.countDocuments()`, a backup, a dashboard) send queries
// without a filter. The local server is FerretDB with a patch of ours (infra/local/infra.sh,
// patch_ferretdb) that pushes `_id` lookups down to SQLite's index; a first version of it
// asked a missing filter for `_id`, panicked, and dropped the connection on each of these.
// Every shape runs against the real local server, as stock FerretDB and MongoDB answer it.

describe('queries without a filter on the local MongoDB-protocol server', () => {
  let mongo: { client: MongoClient; db: Db }
  const docs = [
    { _id: 'a', kind: 'x', n: 1 },
    { _id: 'b', kind: 'y', n: 2 },
    { _id: 'c', kind: 'x', n: 3 },
  ]

  beforeAll(async () => {
    mongo = await connectMongo(testMongoUrl('service_kit_unfiltered'))
    await mongo.db.collection('things').insertMany(docs as never[])
  })

  afterAll(async () => {
    await mongo.db.dropDatabase()
    await mongo.client.close()
  })

  const things = () => mongo.db.collection<{ _id: string; kind: string; n: number }>('things')

  it('answers estimatedDocumentCount()', async () => {
    expect(await things().estimatedDocumentCount()).toBe(3)
  })

  it('answers count without a query', async () => {
    expect(await mongo.db.command({ count: 'things' })).toMatchObject({ n: 3, ok: 1 })
  })

  it('answers find without a query, and with an empty one', async () => {
    const noQuery = await mongo.db.command({ find: 'things' })
    expect(noQuery.cursor.firstBatch).toHaveLength(3)
    expect(await things().find().sort({ _id: 1 }).toArray()).toEqual(docs)
  })

  it('answers distinct without a query', async () => {
    const answer = await mongo.db.command({ distinct: 'things', key: 'kind' })
    expect([...(answer.values as string[])].sort()).toEqual(['x', 'y'])
  })

  it('answers aggregations that do not start with $match', async () => {
    const grouped = await things()
      .aggregate<{ _id: string; total: number }>([
        { $group: { _id: '$kind', total: { $sum: '$n' } } },
        { $sort: { _id: 1 } },
      ])
      .toArray()
    expect(grouped).toEqual([
      { _id: 'x', total: 4 },
      { _id: 'y', total: 2 },
    ])
    expect(
      await things()
        .aggregate([{ $count: 'all' }])
        .toArray(),
    ).toEqual([{ all: 3 }])
  })

  it('still finds by _id alone and by _id with other fields', async () => {
    expect(await things().findOne({ _id: 'b' })).toEqual(docs[1])
    expect(await things().findOne({ _id: 'c', kind: 'x' })).toEqual(docs[2])
    expect(await things().findOne({ _id: 'c', kind: 'y' })).toBeNull()
  })
})
