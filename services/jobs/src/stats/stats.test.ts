import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
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
    expect(stats.body).toEqual({
      posts: { total: 5, online: 2, offline: 3 },
      requestsReceived: { total: 4, pending: 2, accepted: 1, rejected: 1 },
      requestsSent: { total: 1, pending: 0, accepted: 1, rejected: 0 },
      acceptanceRate: 0.5,
    })
    const workerStats = await jobs.clientFor(w1).get(`/api/jobs/stats/${w1}`)
    expect(workerStats.body).toEqual({
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
