import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { KNOWN_POSTS_COLLECTION } from '../posts/known-posts'
import { KNOWN_JOB_REQUESTS_COLLECTION } from '../ratings/known-job-requests'
import {
  EVENT_WAIT_MS,
  postEvent,
  startPeopleTestApp,
  workerProfileBody,
  type PeopleTestApp,
} from '../test/people-test-app'

describe('people service: stats (real FerretDB and Kafka)', () => {
  let people: PeopleTestApp

  beforeAll(async () => {
    people = await startPeopleTestApp('people_stats')
  }, 120_000)

  afterAll(async () => {
    await people?.stop()
  })

  async function worker(first: string): Promise<string> {
    const userId = await people.registerUser(first, 'Worker')
    await people.clientFor(userId).put(`/api/users/${userId}/worker-profile`, workerProfileBody())
    return userId
  }

  async function post(ownerId: string, title: string): Promise<string> {
    const postId = new ObjectId().toHexString()
    await publishEvent(Topics.jobsPosts, postEvent('post.created', { postId, ownerId, title }))
    await waitFor(
      async () =>
        (await people.db.collection(KNOWN_POSTS_COLLECTION).findOne({ _id: postId as never })) !==
        null,
      { timeoutMs: EVENT_WAIT_MS, what: `post "${title}" known` },
    )
    return postId
  }

  it("counts a user's people requests per status and shows their rating, to themself only", async () => {
    const ownerId = await people.registerUser('Olga', 'Owner')
    const owner = people.clientFor(ownerId)
    const otherOwnerId = await people.registerUser('Otto', 'Owner')
    const [amyId, benId, cyId] = [await worker('Amy'), await worker('Ben'), await worker('Cy')]
    const postId = await post(ownerId, 'Paint the house')
    const otherPostId = await post(otherOwnerId, 'Mow the lawn')

    const ask = async (from: string, postID: string, requestedID: string) => {
      const sent = await people
        .clientFor(from)
        .post('/api/people/requests', { postID, requestedID })
      expect(sent.status).toBe(201)
      return sent.body._id as string
    }
    const toAmy = await ask(ownerId, postId, amyId)
    const toBen = await ask(ownerId, postId, benId)
    await ask(ownerId, postId, cyId)
    await ask(otherOwnerId, otherPostId, amyId)
    expect(
      (await people.clientFor(amyId).patch(`/api/people/requests/${toAmy}`, { status: 'accepted' }))
        .status,
    ).toBe(200)
    expect(
      (await people.clientFor(benId).patch(`/api/people/requests/${toBen}`, { status: 'rejected' }))
        .status,
    ).toBe(200)

    // Amy did a post of Olga's (a request on a post, from the jobs service) and was rated.
    const jobRequestId = new ObjectId().toHexString()
    for (const [type, status] of [
      ['job-request.created', 'pending'],
      ['job-request.decided', 'accepted'],
    ] as const) {
      await publishEvent(
        Topics.jobsRequests,
        newEvent(type, {
          aggregateId: jobRequestId,
          actorId: ownerId,
          data: {
            requestId: jobRequestId,
            postId,
            postTitle: 'Paint the house',
            ownerId,
            requesterId: amyId,
            requesterName: 'Amy Worker',
            status,
          },
        }),
      )
    }
    await waitFor(
      async () =>
        (
          await people.db
            .collection(KNOWN_JOB_REQUESTS_COLLECTION)
            .findOne({ _id: jobRequestId as never })
        )?.status === 'accepted',
      { timeoutMs: EVENT_WAIT_MS, what: 'the accepted job request known' },
    )
    expect((await owner.put(`/api/people/ratings/${jobRequestId}`, { stars: 4 })).status).toBe(201)

    const ownStats = await owner.get(`/api/people/stats/${ownerId}`)
    expect(ownStats.status).toBe(200)
    expect(ownStats.body).toEqual({
      peopleRequestsSent: { total: 3, pending: 1, accepted: 1, rejected: 1 },
      peopleRequestsReceived: { total: 0, pending: 0, accepted: 0, rejected: 0 },
      rating: { average: null, count: 0 },
    })
    const amyStats = await people.clientFor(amyId).get(`/api/people/stats/${amyId}`)
    expect(amyStats.body).toEqual({
      peopleRequestsSent: { total: 0, pending: 0, accepted: 0, rejected: 0 },
      peopleRequestsReceived: { total: 2, pending: 1, accepted: 1, rejected: 0 },
      rating: { average: 4, count: 1 },
    })

    const foreign = await owner.get(`/api/people/stats/${amyId}`)
    expect(foreign.status).toBe(403)
    expect(foreign.text).not.toContain('peopleRequests')
    expect((await people.clientFor(null).get(`/api/people/stats/${amyId}`)).status).toBe(401)
  })
})
