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

/**
 * Someone in the 30-day grace period of an account deletion is gone for everyone
 * else, requests to people included: the other side's sent or received list hides the request
 * until the account is kept ("Keep my account", user.deletion-cancelled).
 */
describe('people service: requests to people during a deletion grace period (real FerretDB and Kafka)', () => {
  let people: PeopleTestApp
  type Client = ReturnType<PeopleTestApp['clientFor']>
  let ownerId: string
  let owner: Client
  let workerId: string
  let worker: Client

  beforeAll(async () => {
    people = await startPeopleTestApp('people_requests_grace')
    ownerId = await people.registerUser('Olive', 'Leaving')
    owner = people.clientFor(ownerId)
    workerId = await people.registerUser('Walt', 'Leaving')
    worker = people.clientFor(workerId)
    expect(
      (await worker.put(`/api/users/${workerId}/worker-profile`, workerProfileBody())).status,
    ).toBe(200)
  }, 150_000)
  afterAll(() => people?.stop())

  async function sentRequestId(): Promise<string> {
    const postId = new ObjectId().toHexString()
    await publishEvent(
      Topics.jobsPosts,
      postEvent('post.created', { postId, ownerId, title: 'Move a sofa' }),
    )
    await waitFor(
      async () =>
        (await people.db.collection(KNOWN_POSTS_COLLECTION).findOne({ _id: postId as never })) !==
        null,
      { timeoutMs: EVENT_WAIT_MS, what: 'the post known to people' },
    )
    const sent = await owner.post('/api/people/requests', { postID: postId, requestedID: workerId })
    expect(sent.status).toBe(201)
    return sent.body._id as string
  }

  const idsIn = async (client: Client, list: 'sent' | 'received') =>
    ((await client.get(`/api/people/requests/${list}`)).body as Array<{ _id: string }>).map(
      (request) => request._id,
    )

  const keepAccount = (userId: string) =>
    publishEvent(
      Topics.authUsers,
      newEvent('user.deletion-cancelled', {
        aggregateId: userId,
        actorId: userId,
        data: { userId },
      }),
    )

  it("hides a leaving owner's request from the worker's received list, and brings it back", async () => {
    const requestId = await sentRequestId()
    expect(await idsIn(worker, 'received')).toContain(requestId)

    expect((await owner.delete(`/api/users/${ownerId}`)).status).toBe(200)
    expect(await idsIn(worker, 'received')).not.toContain(requestId)
    // The leaving owner's own list is theirs: nothing of it is hidden from them.
    expect(await idsIn(owner, 'sent')).toContain(requestId)

    await keepAccount(ownerId)
    await waitFor(async () => (await idsIn(worker, 'received')).includes(requestId), {
      timeoutMs: EVENT_WAIT_MS,
      what: "the kept owner's request back in the worker's list",
    })
  }, 150_000)

  it("hides a leaving worker from the owner's sent list, and brings them back", async () => {
    const requestId = await sentRequestId()
    expect(await idsIn(owner, 'sent')).toContain(requestId)

    expect((await worker.delete(`/api/users/${workerId}`)).status).toBe(200)
    expect(await idsIn(owner, 'sent')).not.toContain(requestId)
    expect(await idsIn(worker, 'received')).toContain(requestId)

    await keepAccount(workerId)
    await waitFor(async () => (await idsIn(owner, 'sent')).includes(requestId), {
      timeoutMs: EVENT_WAIT_MS,
      what: "the kept worker back in the owner's sent list",
    })
  }, 150_000)
})
