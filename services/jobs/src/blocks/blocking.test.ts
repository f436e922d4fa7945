import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { announceWorker } from '../test/announce-worker'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
const EVENT_WAIT_MS = 60_000
const HIDDEN_EMAIL = 'owner.private.block@example.com'

/**
 * Blocking, as the jobs service honours it (docs/blocking.md): once either side blocked the
 * other, neither sees the other's posts in the feed, search or details (404, as for a post
 * that does not exist), no request goes either way (403), and what an accepted request showed
 * (the hidden contact) stops being shown. Everyone else sees everything as before, and an
 * unblock restores it all.
 */
describe('jobs service: blocking, both ways (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp
  type Client = ReturnType<JobsTestApp['clientFor']>

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_blocking')
  }, 150_000)
  afterAll(() => jobs.stop())

  const announce = (
    type: 'user.blocked' | 'user.unblocked',
    blockerId: string,
    blockedId: string,
  ) =>
    publishEvent(
      Topics.peopleUsers,
      newEvent(type, {
        aggregateId: blockerId,
        actorId: blockerId,
        data: { blockerId, blockedId },
      }),
    )
  const searchIds = async (client: Client, word: string) =>
    ((await client.get(`/api/jobs?search=${word}`)).body.jobs as Array<{ _id: string }>).map(
      (post) => post._id,
    )
  const feedIds = async (client: Client, query = '') =>
    ((await client.get(`/api/jobs?limit=50${query}`)).body.jobs as Array<{ _id: string }>).map(
      (post) => post._id,
    )

  it("hides each side's posts from the other in feed, search and details, refuses requests both ways, and unblocking restores it", async () => {
    const ownerId = await announceWorker(jobs, 'Olive')
    const owner = jobs.clientFor(ownerId)
    const workerId = await announceWorker(jobs, 'Bruno')
    const worker = jobs.clientFor(workerId)
    const bystanderId = await announceWorker(jobs, 'Cleo')
    const bystander = jobs.clientFor(bystanderId)

    // The owner's two posts: one the worker requested and was accepted on (hidden contact).
    const { body: accepted } = await owner.post('/api/jobs', {
      title: 'Paint a fence quokka',
      where: 'Austin TX',
      contact: 'Email',
      contactValue: HIDDEN_EMAIL,
      displayContact: false,
    })
    const { body: other } = await owner.post('/api/jobs', {
      title: 'Mow a lawn quokka',
      where: 'Austin TX',
    })
    // The worker's own post, which the owner must stop seeing too (the other direction).
    const { body: workersPost } = await worker.post('/api/jobs', {
      title: 'Sell a bike quokka',
      where: 'Austin TX',
    })
    const { body: request } = await worker.post('/api/jobs/requests', { postID: accepted._id })
    expect(
      (await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'accepted' })).status,
    ).toBe(200)
    expect((await worker.get(`/api/jobs/${accepted._id}`)).body.contactValue).toBe(HIDDEN_EMAIL)
    const sentContact = async () =>
      (
        (await worker.get(`/api/jobs/user/${workerId}/sent-requests`)).body as Array<{
          post: { _id: string; contactValue: string | null }
        }>
      ).find((entry) => entry.post._id === accepted._id)?.post.contactValue ?? null
    expect(await sentContact()).toBe(HIDDEN_EMAIL)
    const requesterEmail = async () =>
      (
        (await owner.get(`/api/jobs/user/${ownerId}/received-requests`)).body as Array<{
          _id: string
          requester: { email: string }
        }>
      ).find((entry) => entry._id === request._id)?.requester.email
    expect(await requesterEmail()).toBe('bruno@example.com')

    // The owner blocks the worker.
    await announce('user.blocked', ownerId, workerId)
    await waitFor(async () => (await searchIds(worker, 'quokka')).length === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the blocker's posts out of the blocked worker's search",
    })

    // The blocked worker: the owner's posts are gone from search, feed (with and without a
    // filter, and its total), and details answer 404, as for a post that does not exist.
    expect(await searchIds(worker, 'quokka')).toEqual([workersPost._id])
    const workerFeed = await feedIds(worker)
    expect(workerFeed).not.toContain(accepted._id)
    expect(workerFeed).not.toContain(other._id)
    expect(workerFeed).toContain(workersPost._id)
    expect(await feedIds(worker, '&location=Austin%20TX')).not.toContain(other._id)
    expect((await worker.get(`/api/jobs/${other._id}`)).status).toBe(404)
    expect((await worker.get(`/api/jobs/${accepted._id}`)).status).toBe(404)
    // The accepted contact value stops being shown to them, and theirs to the owner.
    expect(await sentContact()).toBeNull()
    expect(await requesterEmail()).toBe('')
    // No new request from the blocked side, with a clear message.
    const refused = await worker.post('/api/jobs/requests', { postID: other._id })
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe(Messages.blocks.requestRefused)

    // The blocker: the blocked worker's post is gone for them too, and they cannot request it.
    expect(await searchIds(owner, 'quokka')).toEqual(
      expect.arrayContaining([accepted._id, other._id]),
    )
    expect(await searchIds(owner, 'quokka')).not.toContain(workersPost._id)
    expect(await feedIds(owner)).not.toContain(workersPost._id)
    expect((await owner.get(`/api/jobs/${workersPost._id}`)).status).toBe(404)
    const refusedBack = await owner.post('/api/jobs/requests', { postID: workersPost._id })
    expect(refusedBack.status).toBe(403)
    expect(refusedBack.body.message).toBe(Messages.blocks.requestRefused)

    // Everyone else sees all three, guests included, and may request.
    expect(await searchIds(bystander, 'quokka')).toEqual(
      expect.arrayContaining([accepted._id, other._id, workersPost._id]),
    )
    expect(await searchIds(jobs.clientFor(null), 'quokka')).toHaveLength(3)
    expect((await bystander.get(`/api/jobs/${other._id}`)).status).toBe(200)
    expect((await bystander.post('/api/jobs/requests', { postID: other._id })).status).toBe(201)

    // Unblocking restores everything.
    await announce('user.unblocked', ownerId, workerId)
    await waitFor(async () => (await searchIds(worker, 'quokka')).length === 3, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the blocker's posts back in the worker's search",
    })
    expect((await worker.get(`/api/jobs/${other._id}`)).status).toBe(200)
    expect(await sentContact()).toBe(HIDDEN_EMAIL)
    expect(await requesterEmail()).toBe('bruno@example.com')
    expect((await worker.post('/api/jobs/requests', { postID: other._id })).status).toBe(201)
    expect(await searchIds(owner, 'quokka')).toContain(workersPost._id)
  }, 240_000)

  it('keeps a block while the other direction is lifted: mutual blocks are two blocks', async () => {
    const aId = await announceWorker(jobs, 'Ada')
    const bId = await announceWorker(jobs, 'Ben')
    const a = jobs.clientFor(aId)
    const { body: post } = await jobs.clientFor(bId).post('/api/jobs', {
      title: 'Fix a tap numbat',
      where: 'Austin TX',
    })
    await announce('user.blocked', aId, bId)
    await announce('user.blocked', bId, aId)
    await announce('user.unblocked', aId, bId)
    // Events of two blockers travel on their own partitions: wait until both are handled.
    await waitFor(
      async () => {
        const sets = jobs.db.collection<{ _id: string; blocked?: string[]; blockedBy?: string[] }>(
          'block_sets',
        )
        const ofA = await sets.findOne({ _id: aId })
        return ofA?.blocked?.includes(bId) === false && ofA.blockedBy?.includes(bId) === true
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'both blocks handled and one lifted' },
    )
    expect(await searchIds(a, 'numbat')).toEqual([])
    expect((await a.get(`/api/jobs/${post._id}`)).status).toBe(404)
  }, 180_000)
})
