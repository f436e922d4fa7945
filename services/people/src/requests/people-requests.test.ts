import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { publishEvent, startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import { KNOWN_POSTS_COLLECTION } from '../posts/known-posts'
import {
  EVENT_WAIT_MS,
  startPeopleTestApp,
  postEvent,
  workerProfileBody,
  type PeopleTestApp,
} from '../test/people-test-app'

describe('people service: requests to people (real FerretDB and Kafka)', () => {
  let people: PeopleTestApp
  type Client = ReturnType<PeopleTestApp['clientFor']>
  let ownerId: string
  let owner: Client
  let workerId: string
  let worker: Client
  let stranger: Client

  /** A post as the jobs service announces it (post.created / post.updated). */
  async function announcePost(
    title: string,
    options: { ownerId?: string; isOnline?: boolean; postId?: string } = {},
  ): Promise<string> {
    const postId = options.postId ?? new ObjectId().toHexString()
    await publishEvent(
      Topics.jobsPosts,
      postEvent(options.postId ? 'post.updated' : 'post.created', {
        postId,
        ownerId: options.ownerId ?? ownerId,
        title,
        isOnline: options.isOnline,
      }),
    )
    await waitFor(
      async () => {
        const known = await people.db
          .collection(KNOWN_POSTS_COLLECTION)
          .findOne({ _id: postId as never })
        return known?.isOnline === (options.isOnline ?? true)
      },
      { timeoutMs: EVENT_WAIT_MS, what: `post "${title}" known to people` },
    )
    return postId
  }

  beforeAll(async () => {
    people = await startPeopleTestApp('people_requests')
    ownerId = await people.registerUser('Olga', 'Owner')
    owner = people.clientFor(ownerId)
    workerId = await people.registerUser('Wanda', 'Worker')
    worker = people.clientFor(workerId)
    await worker.put(`/api/users/${workerId}/worker-profile`, workerProfileBody())
    stranger = people.clientFor(await people.registerUser('Sam', 'Stranger'))
  })

  afterAll(async () => {
    await people?.stop()
  })

  it('sends a request for an own online post to a worker, once, and announces it', async () => {
    const probe = await startEventProbe(Topics.peopleRequests)
    try {
      const postId = await announcePost('Move a piano')
      const sent = await owner.post('/api/people/requests', {
        postID: postId,
        requestedID: workerId,
      })
      expect(sent.status).toBe(201)
      expect(sent.body).toMatchObject({
        status: 'pending',
        requestedPerson: { _id: workerId, name: 'Wanda Worker' },
        post: { _id: postId, title: 'Move a piano' },
      })
      const again = await owner.post('/api/people/requests', {
        postID: postId,
        requestedID: workerId,
      })
      expect(again.status).toBe(409)
      expect(again.body.message).toBe(Messages.requests.alreadyRequestedPerson)
      const created = await probe.waitForEvent(
        'people-request.created',
        sent.body._id,
        EVENT_WAIT_MS,
      )
      expect(created.data).toEqual({
        requestId: sent.body._id,
        postId,
        postTitle: 'Move a piano',
        ownerId,
        ownerName: 'Olga Owner',
        workerId,
        workerName: 'Wanda Worker',
        status: 'pending',
      })

      const sentList = await owner.get('/api/people/requests/sent')
      expect(sentList.body).toEqual([
        expect.objectContaining({
          _id: sent.body._id,
          requestedPerson: { _id: workerId, name: 'Wanda Worker' },
          post: { _id: postId, title: 'Move a piano' },
        }),
      ])
      const received = await worker.get('/api/people/requests/received')
      expect(received.body).toEqual([
        expect.objectContaining({
          _id: sent.body._id,
          status: 'pending',
          requester: { _id: ownerId, name: 'Olga Owner' },
          post: { _id: postId, title: 'Move a piano' },
        }),
      ])
      expect((await stranger.get('/api/people/requests/received')).body).toEqual([])
      expect((await people.clientFor(null).get('/api/people/requests/sent')).status).toBe(401)
    } finally {
      await probe.stop()
    }
  })

  it('refuses posts that are not the caller’s or not online, non-workers and oneself', async () => {
    const othersPost = await announcePost('Someone else’s post', { ownerId: people.newUserId() })
    const notMine = await owner.post('/api/people/requests', {
      postID: othersPost,
      requestedID: workerId,
    })
    expect(notMine.status).toBe(404)
    expect(notMine.body.message).toBe(Messages.requests.notYourPost)

    const offlineId = await announcePost('Paused post')
    await announcePost('Paused post', { postId: offlineId, isOnline: false })
    const offline = await owner.post('/api/people/requests', {
      postID: offlineId,
      requestedID: workerId,
    })
    expect(offline.status).toBe(400)
    expect(offline.body.message).toBe('This post is not taking requests right now')

    const postId = await announcePost('Clean the garage')
    const notWorker = await owner.post('/api/people/requests', {
      postID: postId,
      requestedID: stranger.userId,
    })
    expect(notWorker.status).toBe(400)
    expect(notWorker.body.message).toBe(Messages.requests.personNotWorker)
    const self = await owner.post('/api/people/requests', { postID: postId, requestedID: ownerId })
    expect(self.status).toBe(400)
    const nobody = await owner.post('/api/people/requests', {
      postID: postId,
      requestedID: people.newUserId(),
    })
    expect(nobody.status).toBe(404)
    expect((await owner.post('/api/people/requests', { postID: 'x' })).status).toBe(400)
  })

  it('lets only the requested worker answer, once; decided requests can only be deleted', async () => {
    const probe = await startEventProbe(Topics.peopleRequests)
    try {
      const postId = await announcePost('Paint a fence')
      const { body: request } = await owner.post('/api/people/requests', {
        postID: postId,
        requestedID: workerId,
      })
      const path = `/api/people/requests/${request._id}`
      expect((await owner.patch(path, { status: 'accepted' })).status).toBe(404)
      expect((await stranger.patch(path, { status: 'accepted' })).status).toBe(404)
      const invalid = await worker.patch(path, { status: 'maybe' })
      expect(invalid.status).toBe(400)
      expect(invalid.body.message).toBe(Messages.requests.decisionStatus)

      const accepted = await worker.patch(path, { status: 'accepted' })
      expect(accepted.status).toBe(200)
      expect(accepted.body).toMatchObject({ _id: request._id, status: 'accepted' })
      const decided = await probe.waitForEvent('people-request.decided', request._id, EVENT_WAIT_MS)
      expect(decided.data).toMatchObject({ status: 'accepted', workerId, ownerId, postId })

      const undo = await worker.patch(path, { status: 'rejected' })
      expect(undo.status).toBe(409)
      expect(undo.body.message).toBe(Messages.requests.alreadyDecided)

      // The receiver deletes it from their side; the sender cannot use the receiver's route.
      expect((await owner.delete(`/api/people/requests/received/${request._id}`)).status).toBe(404)
      expect((await worker.delete(`/api/people/requests/received/${request._id}`)).status).toBe(204)
      const deleted = await probe.waitForEvent('people-request.deleted', request._id, EVENT_WAIT_MS)
      expect(deleted.data).toMatchObject({ status: 'accepted', workerId, postId })
      expect((await worker.get('/api/people/requests/received')).body).not.toContainEqual(
        expect.objectContaining({ _id: request._id }),
      )
    } finally {
      await probe.stop()
    }
  })

  it('lets the sender withdraw, and nobody else', async () => {
    const postId = await announcePost('Walk my dog')
    const { body: request } = await owner.post('/api/people/requests', {
      postID: postId,
      requestedID: workerId,
    })
    const path = `/api/people/requests/${request._id}`
    expect((await stranger.delete(path)).status).toBe(404)
    expect((await worker.delete(path)).status).toBe(404)
    expect((await owner.delete(path)).status).toBe(204)
    expect((await owner.delete(path)).status).toBe(404)
    expect((await owner.delete('/api/people/requests/not-an-id')).status).toBe(404)
  })
  it("lists a user's sent and received requests in a fixed number of commands, at 1x and 10x the requests", async () => {
    const requests = people.db.collection('people_requests')
    /** `count` requests between other users, stored directly. */
    const storeOthers = (count: number) =>
      requests.insertMany(
        Array.from({ length: count }, (_, i) => ({
          _id: people.newUserId(),
          postId: people.newUserId(),
          postTitle: `Other ${i}`,
          ownerId: people.newUserId(),
          workerId: people.newUserId(),
          status: 'pending',
          createdAt: new Date(Date.now() - i),
          updatedAt: new Date(Date.now() - i),
        })) as never[],
      )
    const costs = async () => {
      const sent = await owner.get('/api/people/requests/sent')
      const received = await worker.get('/api/people/requests/received')
      return { sent: sent.commands, received: received.commands, listed: sent.body.length }
    }
    await storeOthers(40)
    const atSmall = await costs()
    await storeOthers(360)
    const atLarge = await costs()
    console.log(
      `people request lists commands at 1x and 10x: ${JSON.stringify({ atSmall, atLarge })}`,
    )
    expect(atLarge).toEqual(atSmall)
    for (const commands of [atSmall.sent, atSmall.received]) {
      expect(commands).toBeGreaterThan(0)
      expect(commands).toBeLessThanOrEqual(5)
    }
  })
})
