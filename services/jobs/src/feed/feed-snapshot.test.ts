import { randomBytes } from 'node:crypto'
import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { TEST_QUERY, infraEnv, publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { isLive, POSTS_COLLECTION, type PostDocument } from '../posts/post-document'
import { derivedFields } from '../posts/post-input'
import { startJobsTestApp, type JobsApp, type JobsTestApp } from '../test/jobs-test-app'
import { feedOrder } from '@marketplace/read-models/feed'
import { toPostView } from '../posts/post-view'

// A new consumer group first replays the shared broker's history, and the writes below go
// through the outbox and Kafka: allow for a busy machine.
const WAIT_MS = 90_000

/** Posts written straight to the database, as a long-lived database holds them. */
function makePosts(count: number, ownerId: string): PostDocument[] {
  const start = Date.UTC(2026, 0, 1)
  return Array.from({ length: count }, (_, i) => {
    const fields = { title: `Help moving boxes ${i}`, infos: 'Bring gloves', expirationDate: null }
    return {
      _id: new ObjectId().toHexString(),
      userID: ownerId,
      location: ['Boston MA', 'Austin TX'][i % 2]!,
      jobStartEnd: '',
      salary: '$20/h',
      paymentType: i % 2 === 0 ? ['Cash'] : ['Cash', 'Zelle'],
      contact: 'Email',
      displayLocation: true,
      displayContact: true,
      jobPicture: null,
      isOnline: i % 9 !== 0,
      takenDown: false,
      createdAt: new Date(start + i * 60_000),
      updatedAt: new Date(start + i * 60_000),
      ...fields,
      ...derivedFields(fields),
    }
  })
}

describe('jobs feed: a new instance loads the snapshot and follows on from its position', () => {
  let jobs: JobsTestApp

  beforeAll(async () => {
    const infra = infraEnv()
    jobs = await startJobsTestApp('jobs_feed_snapshot', {
      SNAPSHOT_S3_ENDPOINT: infra.s3Endpoint,
      SNAPSHOT_S3_ACCESS_KEY: infra.s3AccessKey,
      SNAPSHOT_S3_SECRET_KEY: infra.s3SecretKey,
      SNAPSHOT_S3_REGION: infra.s3Region,
      SNAPSHOT_S3_PREFIX: `test-${randomBytes(4).toString('hex')}/`,
      // Only the writes the test asks for (and the one after a load from the database).
      SNAPSHOT_EVERY_MS: String(3_600_000),
    })
  })
  afterAll(() => jobs.stop())

  /** Registers an owner as auth announces users (the posts service asks the directory). */
  async function newOwner(): Promise<string> {
    const userId = jobs.newUserId()
    await publishEvent(
      Topics.authUsers,
      newEvent('user.registered', {
        aggregateId: userId,
        actorId: userId,
        data: {
          userId,
          email: `owner.${userId}@example.com`,
          firstName: 'Olga',
          lastName: 'Owner',
          phoneNumber: '5551234567',
          dateOfBirth: '1990-01-01',
          interest: 'Both',
          emailPreferences: false,
        },
      }),
    )
    return userId
  }

  /**
   * Creates, edits, switches off and deletes posts through the API of the first instance
   * until stopped: every change reaches the second only as an event.
   */
  function keepWriting(ownerId: string) {
    const owner = jobs.clientFor(ownerId)
    let stopped = false
    let writes = 0
    const mine: string[] = []
    const done = (async () => {
      for (let i = 0; !stopped; i += 1) {
        const created = await owner.post('/api/jobs', {
          title: `Paint a fence ${i}`,
          where: 'Denver CO',
        })
        if (created.status !== 201)
          throw new Error(`create answered ${created.status}: ${created.text}`)
        mine.push(created.body._id as string)
        writes += 1
        const earlier = mine[Math.floor(mine.length / 2)]!
        if (i % 3 === 1) await owner.put(`/api/jobs/${earlier}`, { title: `Paint a wall ${i}` })
        if (i % 5 === 2) await owner.put(`/api/jobs/${earlier}`, { isOnline: false })
        if (i % 7 === 3) await owner.delete(`/api/jobs/${mine.shift()!}`)
        writes += 1
      }
    })()
    return {
      writes: () => writes,
      async stop() {
        stopped = true
        await done
      },
    }
  }

  /**
   * The live posts as the database holds them, as the feed would list them: each as its guest
   * view, which is everything the feed holds of a post (its hidden values it never holds).
   */
  async function liveInDatabase(): Promise<string[]> {
    const posts = await jobs.db
      .collection<PostDocument>(POSTS_COLLECTION)
      .find({}, { ...TEST_QUERY, projection: { outbox: 0 } })
      .toArray()
    const now = new Date()
    return posts
      .filter((post) => isLive(post, now))
      .sort(feedOrder)
      .map((post) => JSON.stringify(toPostView(post, null)))
  }

  const inFeed = (app: JobsApp) =>
    app.feed.posts().map((post) => JSON.stringify(toPostView(post, null)))

  it('writes running before, during and after the load: the new feed equals the database, each post once', async () => {
    const ownerId = await newOwner()
    await jobs.db.collection<PostDocument>(POSTS_COLLECTION).insertMany(makePosts(300, ownerId))
    // The first instance holds them (they were written without events), then snapshots.
    await jobs.app.feedSync.load()
    const writer = keepWriting(ownerId)
    try {
      await waitFor(() => writer.writes() >= 10, {
        timeoutMs: WAIT_MS,
        what: 'writes before the snapshot',
      })
      await jobs.app.feedSync.writeSnapshot()
      const atSnapshot = writer.writes()
      // Changes between the snapshot and the new instance: only its position can bring them.
      await waitFor(() => writer.writes() >= atSnapshot + 10, {
        timeoutMs: WAIT_MS,
        what: 'writes after the snapshot',
      })

      const second = await jobs.startReplica()
      await waitFor(() => second.app.feedSync.isLoaded(), {
        timeoutMs: WAIT_MS,
        what: 'the second instance ready',
      })
      expect(second.app.feedSync.loadedFrom()).toBe('snapshot')
      const atReady = writer.writes()
      await waitFor(() => writer.writes() >= atReady + 10, {
        timeoutMs: WAIT_MS,
        what: 'writes after the load',
      })
      await writer.stop()

      let expected: string[] = []
      await waitFor(
        async () => {
          expected = await liveInDatabase()
          const actual = inFeed(second.app)
          return (
            actual.length === expected.length && actual.every((post, i) => post === expected[i])
          )
        },
        { timeoutMs: WAIT_MS, what: "the second instance's feed to equal the database" },
      )
      expect(inFeed(second.app)).toEqual(expected)
      const ids = second.app.feed.posts().map((post) => post._id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids.length).toBeGreaterThan(300 * (8 / 9))
    } finally {
      await writer.stop()
    }
  })
})
