import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { publishEvent, recordPublishedEvents, waitFor } from '@marketplace/service-kit/testing'
import { KNOWN_POSTS_COLLECTION } from '../posts/known-posts'
import {
  EVENT_WAIT_MS,
  postEvent,
  startPeopleTestApp,
  workerProfileBody,
  type PeopleTestApp,
} from '../test/people-test-app'

/**
 * Blocking in the people service (docs/blocking.md): the routes that make, list and lift a
 * block, their events, and what the people service hides once either side blocked the other:
 * the worker profile in the feed, search and details (404, as for nobody), and requests to
 * people both ways (403). The people service writes its own read model with the block, so
 * the blocker's next reads here honour it at once, with no event to wait for.
 */
describe('people service: blocking (real FerretDB and Kafka)', () => {
  let people: PeopleTestApp
  type Client = ReturnType<PeopleTestApp['clientFor']>
  let aliceId: string
  let alice: Client
  let bobId: string
  let bob: Client
  let carolId: string
  let carol: Client

  beforeAll(async () => {
    people = await startPeopleTestApp('people_blocking')
    aliceId = await people.registerUser('Alice', 'Blocker')
    bobId = await people.registerUser('Bob', 'Blocked')
    carolId = await people.registerUser('Carol', 'Bystander')
    alice = people.clientFor(aliceId)
    bob = people.clientFor(bobId)
    carol = people.clientFor(carolId)
    // Both are workers, each findable by a word of their own title.
    const profile = (title: string) => workerProfileBody({ title })
    expect(
      (await alice.put(`/api/users/${aliceId}/worker-profile`, profile('Gardener axolotl'))).status,
    ).toBe(200)
    expect(
      (await bob.put(`/api/users/${bobId}/worker-profile`, profile('Painter axolotl'))).status,
    ).toBe(200)
  }, 150_000)
  afterAll(() => people?.stop())

  /** A post of `ownerId`'s, once the people service knows it (requests to people name one). */
  async function knownPostOf(ownerId: string, title: string): Promise<string> {
    const postId = new ObjectId().toHexString()
    await publishEvent(Topics.jobsPosts, postEvent('post.created', { postId, ownerId, title }))
    await waitFor(
      async () =>
        (await people.db.collection(KNOWN_POSTS_COLLECTION).findOne({ _id: postId as never })) !==
        null,
      { timeoutMs: EVENT_WAIT_MS, what: 'the post known to people' },
    )
    return postId
  }

  const searchIds = async (client: Client) =>
    ((await client.get('/api/people?search=axolotl')).body.people as Array<{ _id: string }>).map(
      (person) => person._id,
    )
  const feedIds = async (client: Client) =>
    ((await client.get('/api/people?limit=50')).body.people as Array<{ _id: string }>).map(
      (person) => person._id,
    )

  it('refuses blocking oneself, nobody, or an unknown person with clear messages', async () => {
    const self = await alice.post('/api/people/blocks', { userId: aliceId })
    expect(self.status).toBe(400)
    expect(self.body.message).toBe(Messages.blocks.cannotBlockYourself)
    const missing = await alice.post('/api/people/blocks', {})
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe(Messages.blocks.invalidUser)
    const unknown = await alice.post('/api/people/blocks', { userId: people.newUserId() })
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe(Messages.blocks.personNotFound)
    const notBlocked = await alice.delete(`/api/people/blocks/${carolId}`)
    expect(notBlocked.status).toBe(404)
    expect(notBlocked.body.message).toBe(Messages.blocks.notBlocked)
    expect((await people.clientFor(null).get('/api/people/blocks')).status).toBe(401)
  })

  it('hides both sides from each other, refuses requests both ways, lists the block to its maker only, and unblocking restores it', async () => {
    const alicesPost = await knownPostOf(aliceId, 'Plant a hedge')
    const bobsPost = await knownPostOf(bobId, 'Paint a shed')
    expect(await searchIds(alice)).toContain(bobId)
    expect(await searchIds(bob)).toContain(aliceId)
    const recorder = recordPublishedEvents(people.app)

    const made = await alice.post('/api/people/blocks', { userId: bobId })
    expect(made.status).toBe(201)
    expect(made.body).toEqual({
      user: { _id: bobId, name: 'Bob Blocked', profilePicture: null },
      blockedAt: expect.any(String),
    })
    // Blocking again changes nothing and says so.
    expect((await alice.post('/api/people/blocks', { userId: bobId })).status).toBe(200)
    expect((await alice.get('/api/people/blocks')).body).toEqual({ blocks: [made.body] })
    // The list is the caller's own: the blocked person's shows nothing (they are not told).
    expect((await bob.get('/api/people/blocks')).body).toEqual({ blocks: [] })

    // The blocker, at once: the blocked worker is gone from search, feed and details.
    expect(await searchIds(alice)).not.toContain(bobId)
    expect(await feedIds(alice)).not.toContain(bobId)
    expect((await alice.get(`/api/users/${bobId}`)).status).toBe(404)
    // The blocked person: the blocker is gone for them too.
    expect(await searchIds(bob)).not.toContain(aliceId)
    expect(await feedIds(bob)).not.toContain(aliceId)
    expect((await bob.get(`/api/users/${aliceId}`)).status).toBe(404)
    // Requests to people, both ways: 403 with the same words whoever blocked.
    for (const [client, postID, requestedID] of [
      [alice, alicesPost, bobId],
      [bob, bobsPost, aliceId],
    ] as const) {
      const refused = await client.post('/api/people/requests', { postID, requestedID })
      expect(refused.status).toBe(403)
      expect(refused.body.message).toBe(Messages.blocks.requestRefused)
    }
    // Anyone else sees both.
    expect(await searchIds(carol)).toEqual(expect.arrayContaining([aliceId, bobId]))
    expect((await carol.get(`/api/users/${bobId}`)).status).toBe(200)
    expect(await searchIds(people.clientFor(null))).toEqual(
      expect.arrayContaining([aliceId, bobId]),
    )

    // Only the blocker lifts it.
    expect((await bob.delete(`/api/people/blocks/${aliceId}`)).status).toBe(404)
    expect((await alice.delete(`/api/people/blocks/${bobId}`)).status).toBe(204)
    expect((await alice.get('/api/people/blocks')).body).toEqual({ blocks: [] })
    expect(await searchIds(alice)).toContain(bobId)
    expect(await searchIds(bob)).toContain(aliceId)
    expect((await bob.get(`/api/users/${aliceId}`)).status).toBe(200)
    const allowed = await alice.post('/api/people/requests', {
      postID: alicesPost,
      requestedID: bobId,
    })
    expect(allowed.status).toBe(201)

    // The two events went out on the blocker's stream, naming both.
    await waitFor(
      async () =>
        recorder.events().filter((e) => e.type === 'user.blocked' || e.type === 'user.unblocked')
          .length >= 2,
      { timeoutMs: EVENT_WAIT_MS, what: 'user.blocked and user.unblocked published' },
    )
    recorder.stop()
    const published = recorder
      .events()
      .filter((e) => e.type === 'user.blocked' || e.type === 'user.unblocked')
    expect(published.map((e) => [e.type, e.aggregateId, e.data])).toEqual([
      ['user.blocked', aliceId, { blockerId: aliceId, blockedId: bobId }],
      ['user.unblocked', aliceId, { blockerId: aliceId, blockedId: bobId }],
    ])
  }, 180_000)
})
