import { randomUUID } from 'node:crypto'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, recordPublishedEvents, waitFor } from '@marketplace/service-kit/testing'
import { POSTS_COLLECTION } from '../posts/post-document'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'
import { USERS_COLLECTION } from '../users/user-directory'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
const EVENT_WAIT_MS = 60_000

const futureDate = (days: number) =>
  new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)

describe('jobs service: stats (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp

  /** A user with a worker profile, as the auth and people services announce them. */
  async function makeWorker(firstName: string): Promise<string> {
    const userId = jobs.newUserId()
    await publishEvent(
      Topics.authUsers,
      newEvent('user.registered', {
        aggregateId: userId,
        actorId: userId,
        data: {
          userId,
          email: `${firstName.toLowerCase()}.${userId}@example.com`,
          firstName,
          lastName: 'Worker',
          phoneNumber: '5551234567',
          dateOfBirth: '1990-01-01',
          interest: 'Both',
          emailPreferences: false,
        },
      }),
    )
    await publishEvent(
      Topics.peopleUsers,
      newEvent('worker-profile.updated', {
        aggregateId: userId,
        actorId: userId,
        data: { userId, isWorker: true, title: 'Mover', skills: ['Lifting'], profilePicture: null },
      }),
    )
    await waitFor(
      async () =>
        (await jobs.db
          .collection(USERS_COLLECTION)
          .findOne({ _id: userId as never, isWorker: true })) !== null,
      { timeoutMs: EVENT_WAIT_MS, what: `${firstName}'s worker profile to reach jobs` },
    )
    return userId
  }

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_stats')
  }, 150_000)
  afterAll(() => jobs.stop())

  it("counts a user's posts, the requests on them and the requests they sent, for themself only", async () => {
    const ownerId = await makeWorker('Olga')
    const owner = jobs.clientFor(ownerId)
    const [w1, w2, w3] = [await makeWorker('Ann'), await makeWorker('Ben'), await makeWorker('Cy')]
    const otherOwner = jobs.clientFor(jobs.newUserId())

    const newPost = async (title: string, extra: Record<string, unknown> = {}) => {
      const created = await owner.post('/api/jobs', { title, where: 'Denver CO', ...extra })
      expect(created.status).toBe(201)
      return created.body._id as string
    }
    const online = await newPost('Move a sofa')
    const switchedOff = await newPost('Paint a wall')
    await newPost('Clean a garage', { expirationDate: futureDate(5) })
    const expired = await newPost('Mow a lawn', { expirationDate: futureDate(1) })
    const takenDown = await newPost('Fix a tap')

    const request = async (worker: string, postID: string) => {
      const sent = await jobs.clientFor(worker).post('/api/jobs/requests', { postID })
      expect(sent.status).toBe(201)
      return sent.body._id as string
    }
    const decide = async (client: typeof owner, requestId: string, status: string) =>
      expect((await client.patch(`/api/jobs/requests/${requestId}`, { status })).status).toBe(200)

    await decide(owner, await request(w1, online), 'accepted')
    await decide(owner, await request(w2, online), 'rejected')
    await request(w3, switchedOff)
    // An answer undone is pending again.
    const undone = await request(w1, switchedOff)
    await decide(owner, undone, 'accepted')
    await decide(owner, undone, 'pending')

    // Olga, as a worker, asked for another owner's post, which was accepted.
    const theirPost = (
      await otherOwner.post('/api/jobs', { title: 'Their post', where: 'Austin TX' })
    ).body._id as string
    await decide(otherOwner, await request(ownerId, theirPost), 'accepted')

    expect((await owner.put(`/api/jobs/${switchedOff}`, { isOnline: false })).status).toBe(200)
    const posts = jobs.db.collection(POSTS_COLLECTION)
    await posts.updateOne(
      { _id: expired as never },
      { $set: { expiresAt: new Date(Date.now() - 60_000) } },
    )
    await posts.updateOne({ _id: takenDown as never }, { $set: { takenDown: true } })

    const stats = await owner.get(`/api/jobs/stats/${ownerId}`)
    expect(stats.status).toBe(200)
    // The daily series has its own test below.
    const { daily, ...totals } = stats.body
    expect(daily).toHaveLength(30)
    expect(totals).toEqual({
      posts: { total: 5, online: 2, offline: 3 },
      requestsReceived: { total: 4, pending: 2, accepted: 1, rejected: 1 },
      requestsSent: { total: 1, pending: 0, accepted: 1, rejected: 0 },
      acceptanceRate: 0.5,
    })
    const workerStats = await jobs.clientFor(w1).get(`/api/jobs/stats/${w1}`)
    const { daily: workerDaily, ...workerTotals } = workerStats.body
    expect(workerDaily).toHaveLength(30)
    expect(workerTotals).toEqual({
      posts: { total: 0, online: 0, offline: 0 },
      requestsReceived: { total: 0, pending: 0, accepted: 0, rejected: 0 },
      requestsSent: { total: 2, pending: 1, accepted: 1, rejected: 0 },
      acceptanceRate: null,
    })

    const foreign = await jobs.clientFor(w1).get(`/api/jobs/stats/${ownerId}`)
    expect(foreign.status).toBe(403)
    expect(foreign.text).not.toContain('requestsReceived')
    expect((await jobs.clientFor(null).get(`/api/jobs/stats/${ownerId}`)).status).toBe(401)
  }, 150_000)

  /** The sums of the caller's daily series (every day of it). */
  async function seriesTotals(userId: string, days?: number) {
    const answer = await jobs
      .clientFor(userId)
      .get(`/api/jobs/stats/${userId}${days ? `?days=${days}` : ''}`)
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

  it("keeps each user's requests per day from the request events, once each, and forgets a deleted user", async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const [ann, ben] = [await makeWorker('Dana'), await makeWorker('Eli')]
    const postId = (await owner.post('/api/jobs', { title: 'Carry boxes', where: 'Reno NV' })).body
      ._id as string
    const recorder = recordPublishedEvents(jobs.app)
    const annRequest = (await jobs.clientFor(ann).post('/api/jobs/requests', { postID: postId }))
      .body._id as string
    await jobs.clientFor(ben).post('/api/jobs/requests', { postID: postId })
    const accept = () => owner.patch(`/api/jobs/requests/${annRequest}`, { status: 'accepted' })
    expect((await accept()).status).toBe(200)
    // Undone and accepted again: still one acceptance.
    await owner.patch(`/api/jobs/requests/${annRequest}`, { status: 'pending' })
    expect((await accept()).status).toBe(200)

    const expected = { days: 30, received: 2, sent: 0, receivedAccepted: 1, sentAccepted: 0 }
    await waitFor(async () => (await seriesTotals(ownerId)).receivedAccepted === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the owner's acceptance to reach the series",
    })
    await waitFor(async () => (await seriesTotals(ann)).sentAccepted === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the worker's accepted request to reach the series",
    })

    // The same facts again (a replay, a second relay of the outbox): new event ids, the
    // same requests.
    const created = recorder
      .events()
      .filter(
        (event) => event.type === 'job-request.created' || event.type === 'job-request.decided',
      )
    recorder.stop()
    expect(created.length).toBeGreaterThanOrEqual(4)
    for (const event of created) {
      await publishEvent(Topics.jobsRequests, { ...event, id: randomUUID() } as never)
    }
    // Every group of this app has handled everything published so far, the copies too.
    await jobs.caughtUp(2 * EVENT_WAIT_MS)
    expect(await seriesTotals(ownerId)).toEqual(expected)
    expect(await seriesTotals(ann)).toEqual({
      days: 30,
      received: 0,
      sent: 1,
      receivedAccepted: 0,
      sentAccepted: 1,
    })
    expect((await seriesTotals(ben, 90)).days).toBe(90)

    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deleted', { aggregateId: ann, actorId: null, data: { userId: ann } }),
    )
    await waitFor(async () => (await seriesTotals(ann)).sent === 0, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the deleted worker's series to be forgotten",
    })
    // The owner's history keeps the requests that happened.
    expect((await seriesTotals(ownerId)).received).toBe(2)
  }, 240_000)

  it('answers 400 for a days value outside 1 to 90, 403 for anyone else', async () => {
    const userId = jobs.newUserId()
    const client = jobs.clientFor(userId)
    for (const days of ['0', '91', 'abc', '2.5', '-1']) {
      const answer = await client.get(`/api/jobs/stats/${userId}?days=${days}`)
      expect({ days, status: answer.status, message: answer.body.message }).toEqual({
        days,
        status: 400,
        message: 'days must be a whole number from 1 to 90',
      })
    }
    const one = await client.get(`/api/jobs/stats/${userId}?days=1`)
    expect(one.body.daily).toEqual([
      {
        date: new Date().toISOString().slice(0, 10),
        received: 0,
        sent: 0,
        receivedAccepted: 0,
        sentAccepted: 0,
      },
    ])
    const foreign = await jobs.clientFor(jobs.newUserId()).get(`/api/jobs/stats/${userId}?days=7`)
    expect(foreign.status).toBe(403)
    expect(foreign.text).not.toContain('daily')
  })

  it('rounds the acceptance rate to two decimals', async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const postId = (await owner.post('/api/jobs', { title: 'Three askers', where: 'Boston MA' }))
      .body._id as string
    const statuses = ['accepted', 'accepted', 'rejected']
    for (const [index, status] of statuses.entries()) {
      const worker = await makeWorker(`Asker${'abc'[index]}`)
      const sent = await jobs.clientFor(worker).post('/api/jobs/requests', { postID: postId })
      await owner.patch(`/api/jobs/requests/${sent.body._id}`, { status })
    }
    expect((await owner.get(`/api/jobs/stats/${ownerId}`)).body.acceptanceRate).toBe(0.67)
  }, 150_000)
})
