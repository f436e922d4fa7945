import { randomUUID } from 'node:crypto'
import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, recordPublishedEvents, waitFor } from '@marketplace/service-kit/testing'
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
    // The daily series has its own test below.
    const { daily, ...ownTotals } = ownStats.body
    expect(daily).toHaveLength(30)
    expect(ownTotals).toEqual({
      peopleRequestsSent: { total: 3, pending: 1, accepted: 1, rejected: 1 },
      peopleRequestsReceived: { total: 0, pending: 0, accepted: 0, rejected: 0 },
      rating: { average: null, count: 0 },
    })
    const amyStats = await people.clientFor(amyId).get(`/api/people/stats/${amyId}`)
    const { daily: amyDaily, ...amyTotals } = amyStats.body
    expect(amyDaily).toHaveLength(30)
    expect(amyTotals).toEqual({
      peopleRequestsSent: { total: 0, pending: 0, accepted: 0, rejected: 0 },
      peopleRequestsReceived: { total: 2, pending: 1, accepted: 1, rejected: 0 },
      rating: { average: 4, count: 1 },
    })

    const foreign = await owner.get(`/api/people/stats/${amyId}`)
    expect(foreign.status).toBe(403)
    expect(foreign.text).not.toContain('peopleRequests')
    expect((await people.clientFor(null).get(`/api/people/stats/${amyId}`)).status).toBe(401)
  })

  /** The sums of the caller's daily series (every day of it). */
  async function seriesTotals(userId: string, days?: number) {
    const answer = await people
      .clientFor(userId)
      .get(`/api/people/stats/${userId}${days ? `?days=${days}` : ''}`)
    expect(answer.status).toBe(200)
    const series = answer.body.daily as Array<Record<string, number | string>>
    const sum = (field: string) => series.reduce((total, day) => total + Number(day[field]), 0)
    return {
      days: series.length,
      received: sum('received'),
      sent: sum('sent'),
      receivedAccepted: sum('receivedAccepted'),
      sentAccepted: sum('sentAccepted'),
    }
  }

  it("keeps each user's people requests per day from the request events, once each, and forgets a deleted user", async () => {
    const ownerId = await people.registerUser('Pia', 'Owner')
    const [dan, eve] = [await worker('Dan'), await worker('Eve')]
    const postId = await post(ownerId, 'Fix the fence')
    const recorder = recordPublishedEvents(people.app)
    const ask = async (requestedID: string) =>
      (
        await people
          .clientFor(ownerId)
          .post('/api/people/requests', { postID: postId, requestedID })
      ).body._id as string
    const toDan = await ask(dan)
    await ask(eve)
    expect(
      (await people.clientFor(dan).patch(`/api/people/requests/${toDan}`, { status: 'accepted' }))
        .status,
    ).toBe(200)

    await waitFor(async () => (await seriesTotals(ownerId)).sentAccepted === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the owner's accepted request to reach the series",
    })
    // The same facts again (a replay, a second relay of the outbox): new event ids.
    const facts = recorder
      .events()
      .filter(
        (event) =>
          event.type === 'people-request.created' || event.type === 'people-request.decided',
      )
    recorder.stop()
    expect(facts.length).toBeGreaterThanOrEqual(3)
    for (const event of facts) {
      await publishEvent(Topics.peopleRequests, { ...event, id: randomUUID() } as never)
    }
    // Every group of this app has handled everything published so far, the copies too.
    await people.caughtUp(2 * EVENT_WAIT_MS)

    expect(await seriesTotals(ownerId)).toEqual({
      days: 30,
      received: 0,
      sent: 2,
      receivedAccepted: 0,
      sentAccepted: 1,
    })
    expect(await seriesTotals(dan)).toEqual({
      days: 30,
      received: 1,
      sent: 0,
      receivedAccepted: 1,
      sentAccepted: 0,
    })
    expect((await seriesTotals(eve, 90)).days).toBe(90)

    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deleted', { aggregateId: dan, actorId: null, data: { userId: dan } }),
    )
    await waitFor(async () => (await seriesTotals(dan)).received === 0, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the deleted worker's series to be forgotten",
    })
    // The owner's history keeps the requests that happened.
    expect((await seriesTotals(ownerId)).sent).toBe(2)
  }, 240_000)

  it('answers 400 for a days value outside 1 to 90, 403 for anyone else', async () => {
    const userId = await people.registerUser('Quinn', 'Owner')
    const client = people.clientFor(userId)
    for (const days of ['0', '91', 'abc', '2.5', '-1']) {
      const answer = await client.get(`/api/people/stats/${userId}?days=${days}`)
      expect({ days, status: answer.status, message: answer.body.message }).toEqual({
        days,
        status: 400,
        message: 'days must be a whole number from 1 to 90',
      })
    }
    const one = await client.get(`/api/people/stats/${userId}?days=1`)
    expect(one.body.daily).toEqual([
      {
        date: new Date().toISOString().slice(0, 10),
        received: 0,
        sent: 0,
        receivedAccepted: 0,
        sentAccepted: 0,
      },
    ])
    const foreign = await people
      .clientFor(await people.registerUser('Ray', 'Other'))
      .get(`/api/people/stats/${userId}?days=7`)
    expect(foreign.status).toBe(403)
    expect(foreign.text).not.toContain('daily')
  })
})
