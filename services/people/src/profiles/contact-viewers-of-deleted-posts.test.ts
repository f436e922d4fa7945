import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { KNOWN_POSTS_COLLECTION } from '../posts/known-posts'
import {
  EVENT_WAIT_MS,
  postEvent,
  startPeopleTestApp,
  workerProfileBody,
  type PeopleTestApp,
} from '../test/people-test-app'

const HIDDEN_NUMBER = '(303) 555-0199'

/**
 * The owner of a deleted post stops seeing the hidden contacts of the workers
 * who requested it, and the grants the jobs service left behind before it said so are taken
 * back by a start-up step (stale-contact-viewers.ts).
 */
describe('people service: hidden contacts after a post is deleted (real FerretDB and Kafka)', () => {
  let people: PeopleTestApp
  type Client = ReturnType<PeopleTestApp['clientFor']>
  let workerId: string

  beforeAll(async () => {
    people = await startPeopleTestApp('people_contact_viewers')
    workerId = await people.registerUser('Wilma', 'Hidden')
    const worker = people.clientFor(workerId)
    expect(
      (await worker.put(`/api/users/${workerId}/worker-profile`, workerProfileBody())).status,
    ).toBe(200)
    await worker.patch(`/api/users/${workerId}/worker-status`, { isOnline: true })
  }, 150_000)
  afterAll(() => people?.stop())

  /** What `viewer` sees of the worker's contacts: on the profile, and on the feed's card. */
  async function contactsSeenBy(viewer: Client) {
    const profile = await viewer.get(`/api/users/${workerId}`)
    const feed = await viewer.get('/api/people?search=Hidden&limit=50')
    const card = (feed.body.people as Array<{ _id: string; contacts: Array<{ value: string }> }>)
      .filter((person) => person._id === workerId)
      .flatMap((person) => person.contacts.map((contact) => contact.value))
    const onProfile = (profile.body.contacts as Array<{ value: string }>).map((c) => c.value)
    return { onProfile, onCard: card, feedText: feed.text, profileText: profile.text }
  }

  /** An owner whose post the worker requested: the owner sees the hidden contact. */
  async function ownerOfARequestedPost(firstName: string) {
    const ownerId = await people.registerUser(firstName, 'Owner')
    const owner = people.clientFor(ownerId)
    const postId = new ObjectId().toHexString()
    const requestId = new ObjectId().toHexString()
    await publishEvent(
      Topics.jobsPosts,
      postEvent('post.created', { postId, ownerId, title: `${firstName}'s move` }),
    )
    const request = {
      requestId,
      postId,
      postTitle: `${firstName}'s move`,
      ownerId,
      requesterId: workerId,
      requesterName: 'Wilma Hidden',
      status: 'pending' as const,
    }
    await publishEvent(
      Topics.jobsRequests,
      newEvent('job-request.created', { aggregateId: requestId, actorId: workerId, data: request }),
    )
    await waitFor(async () => (await contactsSeenBy(owner)).onProfile.includes(HIDDEN_NUMBER), {
      timeoutMs: EVENT_WAIT_MS,
      what: `${firstName} seeing the hidden contact`,
    })
    expect((await contactsSeenBy(owner)).onCard).toContain(HIDDEN_NUMBER)
    const deletePost = () =>
      publishEvent(
        Topics.jobsPosts,
        newEvent('post.deleted', {
          aggregateId: postId,
          actorId: ownerId,
          data: { postId, ownerId, title: request.postTitle },
        }),
      )
    return { ownerId, owner, postId, request, deletePost }
  }

  const expectNoHiddenContact = async (owner: Client) => {
    const seen = await contactsSeenBy(owner)
    expect(seen.onProfile).toEqual(['mover@example.com'])
    expect(seen.onCard).toEqual(['mover@example.com'])
    expect(seen.profileText).not.toContain(HIDDEN_NUMBER)
    expect(seen.feedText).not.toContain(HIDDEN_NUMBER)
  }

  it('shows the owner no hidden contact once the post and its requests are deleted', async () => {
    const { owner, ownerId, request, deletePost } = await ownerOfARequestedPost('Ophelia')
    // What the jobs service publishes when the owner deletes the post.
    await deletePost()
    await publishEvent(
      Topics.jobsRequests,
      newEvent('job-request.deleted', {
        aggregateId: request.requestId,
        actorId: ownerId,
        data: { ...request, deletedBy: 'owner' },
      }),
    )
    await waitFor(async () => !(await contactsSeenBy(owner)).onProfile.includes(HIDDEN_NUMBER), {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the hidden contact taken back',
    })
    await expectNoHiddenContact(owner)
  }, 150_000)

  it('takes back, at start-up, a grant left behind by a post deleted without its requests events', async () => {
    const { owner, postId, deletePost } = await ownerOfARequestedPost('Otto')
    // The jobs service as it was before requests left with their post: post.deleted, and nothing for the requests.
    await deletePost()
    await waitFor(
      async () =>
        (await people.db
          .collection(KNOWN_POSTS_COLLECTION)
          .findOne({ _id: postId as never, deleted: true })) !== null,
      { timeoutMs: EVENT_WAIT_MS, what: 'the post known as deleted' },
    )
    expect((await contactsSeenBy(owner)).onProfile).toContain(HIDDEN_NUMBER)

    // The broker's history replays other suites' requests into this database too: at least
    // this owner's entry is taken back.
    expect(await people.app.staleContactViewers.clean()).toBeGreaterThanOrEqual(1)
    await expectNoHiddenContact(owner)
    // Safe to repeat.
    await people.app.staleContactViewers.clean()
    await expectNoHiddenContact(owner)
  }, 150_000)

  it('keeps the grant of a request whose post still exists', async () => {
    const { owner } = await ownerOfARequestedPost('Oskar')
    await people.app.staleContactViewers.clean()
    expect((await contactsSeenBy(owner)).onProfile).toContain(HIDDEN_NUMBER)
  }, 150_000)
})
