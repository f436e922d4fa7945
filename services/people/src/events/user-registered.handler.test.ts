import { MongoClient, type Db } from 'mongodb'
import { newEvent } from '@marketplace/service-kit'
import { testMongoUrl } from '@marketplace/service-kit/testing'
import { createProfilesRepository } from '../profiles/profiles-repository'
import { userRegisteredHandler } from './user-registered.handler'

// Against the real MongoDB-protocol server of infra/local.
describe('user.registered handler', () => {
  let client: MongoClient
  let db: Db
  beforeAll(async () => {
    client = new MongoClient(testMongoUrl('people_handler'))
    await client.connect()
    db = client.db()
  })
  afterAll(async () => {
    await db.dropDatabase()
    await client.close()
  })

  const registered = (userId: string) =>
    newEvent('user.registered', {
      aggregateId: userId,
      actorId: userId,
      data: {
        userId,
        email: 'linus@example.com',
        firstName: 'Linus',
        lastName: 'Pauling',
        phoneNumber: '(212) 555-0100',
        dateOfBirth: '1990-02-28',
        interest: null,
        emailPreferences: false,
      },
    })

  it('creates a user profile that is not a worker yet', async () => {
    await userRegisteredHandler(createProfilesRepository(db))(registered('u1'))
    const profile = await db.collection('profiles').findOne({ _id: 'u1' as never })
    expect(profile).toMatchObject({ firstName: 'Linus', lastName: 'Pauling', isWorker: false })
    // FerretDB v1 drops null values written by an upsert's $setOnInsert; readers take a
    // missing interest as null (docs/local-infrastructure.md, "FerretDB differences").
    expect(profile?.interest ?? null).toBeNull()
  })

  it('a replayed event neither duplicates the profile nor undoes later edits', async () => {
    const handler = userRegisteredHandler(createProfilesRepository(db))
    const event = registered('u2')
    await handler(event)
    await db
      .collection('profiles')
      .updateOne({ _id: 'u2' as never }, { $set: { firstName: 'Lin' } })
    await handler(event)
    expect(await db.collection('profiles').countDocuments({ _id: 'u2' as never })).toBe(1)
    expect(await db.collection('profiles').findOne({ _id: 'u2' as never })).toMatchObject({
      firstName: 'Lin',
    })
  })
})
