import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { announceWorker } from '../test/announce-worker'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
const EVENT_WAIT_MS = 60_000

/**
 * During the 30-day grace period of an account deletion the user is gone for
 * everyone else (their posts from the feed, search, details and requests; their requests
 * from owners' lists), and comes back when they keep the account.
 */
describe('jobs service: an account in its deletion grace period (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp
  type Client = ReturnType<JobsTestApp['clientFor']>
  let guest: Client

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_deletion_grace')
    guest = jobs.clientFor(null)
  }, 150_000)
  afterAll(() => jobs.stop())

  const deletionRequested = (userId: string) =>
    publishEvent(
      Topics.peopleUsers,
      newEvent('user.deletion-requested', {
        aggregateId: userId,
        actorId: userId,
        data: {
          userId,
          requestedAt: new Date().toISOString(),
          purgeAfter: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        },
      }),
    )
  const deletionCancelled = (userId: string) =>
    publishEvent(
      Topics.authUsers,
      newEvent('user.deletion-cancelled', {
        aggregateId: userId,
        actorId: userId,
        data: { userId },
      }),
    )
  const searchIds = async (word: string) =>
    ((await guest.get(`/api/jobs?search=${word}`)).body.jobs as Array<{ _id: string }>).map(
      (post) => post._id,
    )

  it("hides a leaving owner's posts from the feed, search, details and requests, and brings them back", async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const workerId = await announceWorker(jobs, 'Gemma')
    const worker = jobs.clientFor(workerId)
    const { body: requested } = await owner.post('/api/jobs', {
      title: 'Prune roses wombat',
      where: 'Austin TX',
    })
    const { body: untouched } = await owner.post('/api/jobs', {
      title: 'Rake leaves wombat',
      where: 'Austin TX',
    })
    expect((await worker.post('/api/jobs/requests', { postID: requested._id })).status).toBe(201)
    expect(await searchIds('wombat')).toEqual(
      expect.arrayContaining([requested._id, untouched._id]),
    )

    await deletionRequested(ownerId)
    await waitFor(async () => (await searchIds('wombat')).length === 0, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the leaving owner's posts out of search",
    })
    const feed = await guest.get('/api/jobs?limit=100')
    expect(feed.text).not.toContain('wombat')
    expect((await worker.get(`/api/jobs/${untouched._id}`)).status).toBe(404)
    expect((await guest.get(`/api/jobs/${untouched._id}`)).status).toBe(404)
    const refused = await worker.post('/api/jobs/requests', { postID: untouched._id })
    expect(refused.status).toBe(404)
    const sent = await worker.get(`/api/jobs/user/${workerId}/sent-requests`)
    expect(sent.text).not.toContain(requested._id)

    await deletionCancelled(ownerId)
    await waitFor(async () => (await searchIds('wombat')).length === 2, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the kept account's posts back in search",
    })
    expect((await worker.get(`/api/jobs/${untouched._id}`)).status).toBe(200)
    expect((await worker.post('/api/jobs/requests', { postID: untouched._id })).status).toBe(201)
    expect((await worker.get(`/api/jobs/user/${workerId}/sent-requests`)).text).toContain(
      requested._id,
    )
  }, 180_000)

  it("hides a leaving worker's requests from the owner's received list until they stay", async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const leaverId = await announceWorker(jobs, 'Hector')
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Wash a car',
      where: 'Austin TX',
    })
    const { body: request } = await jobs
      .clientFor(leaverId)
      .post('/api/jobs/requests', { postID: post._id })
    const receivedIds = async () =>
      (
        (await owner.get(`/api/jobs/user/${ownerId}/received-requests`)).body as Array<{
          _id: string
        }>
      ).map((entry) => entry._id)
    expect(await receivedIds()).toContain(request._id)

    await deletionRequested(leaverId)
    await waitFor(async () => !(await receivedIds()).includes(request._id), {
      timeoutMs: EVENT_WAIT_MS,
      what: "the leaving worker's request out of the received list",
    })
    await deletionCancelled(leaverId)
    await waitFor(async () => (await receivedIds()).includes(request._id), {
      timeoutMs: EVENT_WAIT_MS,
      what: "the kept account's request back in the received list",
    })
  }, 180_000)
})
