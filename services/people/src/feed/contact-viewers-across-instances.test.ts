import { hostname } from 'node:os'
import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import {
  TEST_QUERY,
  publishEvent,
  recordPublishedEvents,
  waitFor,
  waitForConsumersCaughtUp,
} from '@marketplace/service-kit/testing'
import { PROFILES_COLLECTION, type ProfileDocument } from '../profiles/profile-document'
import {
  EVENT_WAIT_MS,
  postEvent,
  startPeopleTestApp,
  workerProfileBody,
  type PeopleTestApp,
} from '../test/people-test-app'

const HIDDEN_NUMBER = '(303) 555-0199'

// With two people instances, the one whose consumer handles a job-request.created writes the
// owner into the worker's `contactViewers`; the other instance's feed holds the viewers too
// and must learn of it, or the owner sees the worker's hidden contacts on one instance only.

describe("people feed: an owner's sight of hidden contacts reaches every instance (real FerretDB and Kafka)", () => {
  let people: PeopleTestApp

  beforeAll(async () => {
    people = await startPeopleTestApp('people_viewers_instances')
  }, 150_000)
  afterAll(() => people?.stop())

  const profiles = () => people.db.collection<ProfileDocument>(PROFILES_COLLECTION)
  /**
   * Until this instance's feed has read the events of the test's own writes: one read late
   * re-reads the profile from the database and so shows "another instance's" change before
   * its event (a CI run did that).
   */
  async function ownEventsRead() {
    await waitFor(
      async () => (await profiles().countDocuments({ outboxPending: true }, TEST_QUERY)) === 0,
      { timeoutMs: 30_000, what: 'the outbox sent' },
    )
    await waitForConsumersCaughtUp(`people-feed.${hostname()}.${process.pid}.`, 30_000)
  }

  async function feedContactsOf(viewerId: string, workerId: string): Promise<string[]> {
    const answer = await people.clientFor(viewerId).get('/api/people')
    const card = (
      answer.body.people as Array<{ _id: string; contacts: Array<{ value: string }> }>
    ).find((person) => person._id === workerId)
    return card ? card.contacts.map((contact) => contact.value) : []
  }

  it("follows another instance's change of the viewers from its event", async () => {
    const workerId = await people.registerUser('Vera', 'Viewed')
    const ownerId = await people.registerUser('Omar', 'Owner')
    const saved = await people
      .clientFor(workerId)
      .put(`/api/users/${workerId}/worker-profile`, workerProfileBody())
    expect(saved.status).toBe(200)
    await ownEventsRead()
    expect(await feedContactsOf(ownerId, workerId)).not.toContain(HIDDEN_NUMBER)

    // The other instance's write: in the database, not in this instance's feed.
    const entry = `${ownerId}:${new ObjectId().toHexString()}`
    await profiles().updateOne({ _id: workerId }, { $addToSet: { contactViewers: entry } })
    expect(await feedContactsOf(ownerId, workerId)).not.toContain(HIDDEN_NUMBER)

    // Its event, as the other instance's outbox sends it.
    await publishEvent(
      Topics.peopleUsers,
      newEvent('worker.contact-viewers-changed', {
        aggregateId: workerId,
        actorId: null,
        data: { workerId },
      }),
    )
    await waitFor(async () => (await feedContactsOf(ownerId, workerId)).includes(HIDDEN_NUMBER), {
      timeoutMs: EVENT_WAIT_MS,
      what: "the owner seeing the worker's hidden number in this instance's feed",
    })

    // Taken back the same way.
    await profiles().updateOne({ _id: workerId }, { $pull: { contactViewers: entry } })
    await publishEvent(
      Topics.peopleUsers,
      newEvent('worker.contact-viewers-changed', {
        aggregateId: workerId,
        actorId: null,
        data: { workerId },
      }),
    )
    await waitFor(async () => !(await feedContactsOf(ownerId, workerId)).includes(HIDDEN_NUMBER), {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the hidden number gone from the feed again',
    })
  })

  it('announces the change when it handles a request on the worker, naming the worker only', async () => {
    const workerId = await people.registerUser('Wynn', 'Worker')
    const ownerId = await people.registerUser('Oda', 'Owner')
    expect(
      (
        await people
          .clientFor(workerId)
          .put(`/api/users/${workerId}/worker-profile`, workerProfileBody())
      ).status,
    ).toBe(200)
    const published = recordPublishedEvents(people.app)
    try {
      const postId = new ObjectId().toHexString()
      const requestId = new ObjectId().toHexString()
      await publishEvent(
        Topics.jobsPosts,
        postEvent('post.created', { postId, ownerId, title: 'Move a piano' }),
      )
      await publishEvent(
        Topics.jobsRequests,
        newEvent('job-request.created', {
          aggregateId: requestId,
          actorId: workerId,
          data: {
            requestId,
            postId,
            postTitle: 'Move a piano',
            ownerId,
            requesterId: workerId,
            requesterName: 'Wynn Worker',
            status: 'pending' as const,
          },
        }),
      )
      const announced = await waitFor(
        async () =>
          published
            .events()
            .find(
              (event) =>
                event.type === 'worker.contact-viewers-changed' &&
                (event.data as { workerId: string }).workerId === workerId,
            ),
        { timeoutMs: EVENT_WAIT_MS, what: 'worker.contact-viewers-changed published' },
      )
      expect(announced.data).toEqual({ workerId })
    } finally {
      published.stop()
    }
  })
})
