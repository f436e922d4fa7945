import { MongoClient, type Db } from 'mongodb'
import { testMongoUrl } from '../testing/infra-env'
import { createUserLists, userListId, type UserListDocument } from './user-lists'

describe('per-user lists of ids (real FerretDB)', () => {
  let client: MongoClient
  let db: Db
  const lists = () => createUserLists(db, 'kit_lists')
  const stored = () => db.collection<UserListDocument>('kit_lists')

  beforeAll(async () => {
    client = await MongoClient.connect(testMongoUrl('kit_user_lists'))
    db = client.db()
  })
  afterAll(async () => {
    await db?.dropDatabase()
    await client?.close()
  })

  it('keeps one document per user and list, addressed by _id', async () => {
    const store = lists()
    await store.add('ann', 'sent', 'r1')
    await store.add('ann', 'sent', 'r2')
    await store.add('ann', 'sent', 'r1')
    await store.add('ann', 'received', 'r3')
    await store.remove('ann', 'sent', ['r2'])
    const backfill = jest.fn(async () => [])

    expect(await store.ids('ann', 'sent', backfill)).toEqual(['r1'])
    expect(await store.ids('ann', 'received', backfill)).toEqual(['r3'])
    expect(await stored().findOne({ _id: userListId('ann', 'sent') })).toMatchObject({
      userId: 'ann',
      list: 'sent',
      ids: ['r1'],
      complete: true,
    })
  })

  it('fills a list from the documents stored before the lists existed, once', async () => {
    const store = lists()
    // bob's request r8 was stored in the old shape; r9 arrived after the lists.
    await store.add('bob', 'sent', 'r9')
    const backfill = jest.fn(async () => ['r8', 'r9'])

    expect((await store.ids('bob', 'sent', backfill)).sort()).toEqual(['r8', 'r9'])
    expect((await store.ids('bob', 'sent', backfill)).sort()).toEqual(['r8', 'r9'])
    expect(backfill).toHaveBeenCalledTimes(1)
  })

  it("marks a new user's list complete without anything stored", async () => {
    const store = lists()
    const backfill = jest.fn(async () => [])
    expect(await store.ids('cat', 'sent', backfill)).toEqual([])
    await store.add('cat', 'sent', 'r1')
    expect(await store.ids('cat', 'sent', backfill)).toEqual(['r1'])
    expect(backfill).toHaveBeenCalledTimes(1)
  })

  it('makes one list when two first additions race', async () => {
    const store = lists()
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => store.add('dan', 'sent', id)))
    const ids = await store.ids('dan', 'sent', async () => [])
    expect(ids.sort()).toEqual(['a', 'b', 'c', 'd'])
  })

  it('forgets the named lists of a user', async () => {
    const store = lists()
    await store.add('eve', 'sent', 'r1')
    await store.add('eve', 'received', 'r2')
    await store.forget('eve', ['sent', 'received'])
    expect(await stored().countDocuments({ userId: 'eve' })).toBe(0)
  })
})
