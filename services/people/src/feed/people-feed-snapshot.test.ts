import { randomBytes } from 'node:crypto'
import { feedOrder } from '@marketplace/read-models/feed'
import { TEST_QUERY, infraEnv, waitFor } from '@marketplace/service-kit/testing'
import { PROFILES_COLLECTION, isListed, type ProfileDocument } from '../profiles/profile-document'
import { toPersonView } from '../profiles/profile-views'
import { startPeopleTestApp, workerProfileBody, type PeopleTestApp } from '../test/people-test-app'

// Registrations and profile changes go through Kafka: allow for a busy machine.
const WAIT_MS = 90_000

/** One instant for every card compared: a card's age depends on the day. */
const AT = new Date()

/**
 * A listed profile as the feed serves it to everyone: its card, which is everything the feed
 * holds of a worker (never the e-mail, the phone number nor a hidden contact).
 */
const card = (profile: ProfileDocument): string => JSON.stringify(toPersonView(profile, null, AT))

describe('people feed: a new instance loads the snapshot and follows on from its position', () => {
  let people: PeopleTestApp

  beforeAll(async () => {
    const infra = infraEnv()
    people = await startPeopleTestApp('people_feed_snapshot', {
      SNAPSHOT_S3_ENDPOINT: infra.s3Endpoint,
      SNAPSHOT_S3_ACCESS_KEY: infra.s3AccessKey,
      SNAPSHOT_S3_SECRET_KEY: infra.s3SecretKey,
      SNAPSHOT_S3_REGION: infra.s3Region,
      SNAPSHOT_S3_PREFIX: `test-${randomBytes(4).toString('hex')}/`,
      SNAPSHOT_EVERY_MS: String(3_600_000),
    })
  })
  afterAll(() => people.stop())

  /** Registers workers and edits or switches off earlier ones on the first instance until stopped. */
  function keepWriting() {
    let stopped = false
    let writes = 0
    const workers: string[] = []
    const done = (async () => {
      for (let i = 0; !stopped; i += 1) {
        const userId = await people.registerUser(`Worker${i}`, 'Snapshot')
        const client = people.clientFor(userId)
        await waitFor(
          async () =>
            (
              await client.put(
                `/api/users/${userId}/worker-profile`,
                workerProfileBody({ title: `Mover ${i}` }),
              )
            ).status === 200,
          { timeoutMs: WAIT_MS, what: 'the profile created from the registration' },
        )
        workers.push(userId)
        writes += 1
        const earlier = workers[Math.floor(workers.length / 2)]!
        const owner = people.clientFor(earlier)
        if (i % 3 === 1)
          await owner.put(
            `/api/users/${earlier}/worker-profile`,
            workerProfileBody({ title: `Painter ${i}` }),
          )
        if (i % 4 === 2)
          await owner.patch(`/api/users/${earlier}/worker-status`, { isOnline: false })
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

  async function listedInDatabase(): Promise<string[]> {
    const profiles = await people.db
      .collection<ProfileDocument>(PROFILES_COLLECTION)
      .find({}, { ...TEST_QUERY, projection: { outbox: 0 } })
      .toArray()
    return profiles
      .filter((profile) => isListed(profile))
      .sort(feedOrder)
      .map(card)
  }

  const inFeed = (feed: PeopleTestApp['app']['feed']) => feed.profiles().map(card)

  it('writes running before, during and after the load: the new feed equals the database, each worker once', async () => {
    const writer = keepWriting()
    try {
      await waitFor(() => writer.writes() >= 6, {
        timeoutMs: WAIT_MS,
        what: 'writes before the snapshot',
      })
      await people.app.feedSync.writeSnapshot()
      const atSnapshot = writer.writes()
      await waitFor(() => writer.writes() >= atSnapshot + 6, {
        timeoutMs: WAIT_MS,
        what: 'writes after the snapshot',
      })

      const second = await people.startReplica()
      await waitFor(() => second.app.feedSync.isLoaded(), {
        timeoutMs: WAIT_MS,
        what: 'the second instance ready',
      })
      expect(second.app.feedSync.loadedFrom()).toBe('snapshot')
      const atReady = writer.writes()
      await waitFor(() => writer.writes() >= atReady + 6, {
        timeoutMs: WAIT_MS,
        what: 'writes after the load',
      })
      await writer.stop()

      let expected: string[] = []
      await waitFor(
        async () => {
          expected = await listedInDatabase()
          const actual = inFeed(second.app.feed)
          return (
            actual.length === expected.length &&
            actual.every((profile, i) => profile === expected[i])
          )
        },
        { timeoutMs: WAIT_MS, what: "the second instance's feed to equal the database" },
      )
      expect(inFeed(second.app.feed)).toEqual(expected)
      const ids = second.app.feed.profiles().map((profile) => profile._id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids.length).toBeGreaterThan(6)
    } finally {
      await writer.stop()
    }
  })
})
