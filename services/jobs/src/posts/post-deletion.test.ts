import { Topics, type DomainEvent } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import { POST_ACCESS_COLLECTION } from '../access/post-access'
import { JOB_REQUESTS_COLLECTION } from '../requests/request-document'
import { announceWorker } from '../test/announce-worker'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'
import { POST_DELETIONS_COLLECTION } from './post-deletions-repository'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
const EVENT_WAIT_MS = 60_000

/**
 * A post's requests leave with their own job-request.deleted (the people
 * service takes the owner's view of each requester's hidden contacts back on it), and a
 * deletion a crash interrupted is finished by the sweep.
 */
describe('jobs service: deleting posts and accounts takes every request along (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp
  type Client = ReturnType<JobsTestApp['clientFor']>
  let ownerId: string
  let owner: Client
  let firstWorkerId: string
  let secondWorkerId: string

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_post_deletion')
    ownerId = jobs.newUserId()
    owner = jobs.clientFor(ownerId)
    firstWorkerId = await announceWorker(jobs, 'Fiona')
    secondWorkerId = await announceWorker(jobs, 'Gustav')
  }, 150_000)
  afterAll(() => jobs.stop())

  /** A private post of `by` with a request of each worker, the first one accepted. */
  async function postWithRequests(by: Client, title: string) {
    const { body: post } = await by.post('/api/jobs', {
      title,
      where: 'Quiet Street 9 Austin TX',
      displayLocation: false,
    })
    const requestIds: string[] = []
    for (const workerId of [firstWorkerId, secondWorkerId]) {
      const { status, body } = await jobs
        .clientFor(workerId)
        .post('/api/jobs/requests', { postID: post._id })
      expect(status).toBe(201)
      requestIds.push(body._id)
    }
    expect(
      (await by.patch(`/api/jobs/requests/${requestIds[0]}`, { status: 'accepted' })).status,
    ).toBe(200)
    return { postId: post._id as string, requestIds }
  }

  const count = (collection: string, filter: Record<string, unknown>) =>
    jobs.db.collection(collection).countDocuments(filter)

  const deletedEventsOf = (events: DomainEvent[], requestIds: string[]) =>
    events.filter(
      (event): event is DomainEvent<'job-request.deleted'> =>
        event.type === 'job-request.deleted' && requestIds.includes(event.aggregateId),
    )

  it('deletes each request of a deleted post with job-request.deleted by the owner, and its grants', async () => {
    const probe = await startEventProbe(Topics.jobsRequests)
    try {
      const { postId, requestIds } = await postWithRequests(owner, 'Paint a fence ocelot')
      expect((await owner.delete(`/api/jobs/${postId}`)).status).toBe(204)

      for (const requestId of requestIds) await probe.waitForEvent('job-request.deleted', requestId)
      const deleted = deletedEventsOf(probe.events, requestIds)
      expect(deleted.map((event) => event.data.requesterId).sort()).toEqual(
        [firstWorkerId, secondWorkerId].sort(),
      )
      for (const event of deleted) {
        expect(event.data).toMatchObject({ postId, ownerId, deletedBy: 'owner' })
        expect(event.actorId).toBe(ownerId)
      }
      expect(await count(JOB_REQUESTS_COLLECTION, { postId })).toBe(0)
      expect(await count(POST_ACCESS_COLLECTION, { postId })).toBe(0)
      expect(await count(POST_DELETIONS_COLLECTION, { _id: postId })).toBe(0)
    } finally {
      await probe.stop()
    }
  }, 120_000)

  it('deletes every request by or to a purged user with its job-request.deleted', async () => {
    const leaverId = await announceWorker(jobs, 'Leopold')
    const leaver = jobs.clientFor(leaverId)
    const received = await postWithRequests(leaver, 'Mow a lawn tapir')
    const { body: ownersPost } = await owner.post('/api/jobs', {
      title: 'Carry boxes tapir',
      where: 'Austin TX',
    })
    const { body: sent } = await leaver.post('/api/jobs/requests', { postID: ownersPost._id })
    await owner.patch(`/api/jobs/requests/${sent._id}`, { status: 'accepted' })

    const probe = await startEventProbe(Topics.jobsRequests)
    try {
      await publishEvent(
        Topics.peopleUsers,
        newEvent('user.deleted', {
          aggregateId: leaverId,
          actorId: null,
          data: { userId: leaverId },
        }),
      )
      const all = [...received.requestIds, sent._id as string]
      for (const requestId of all) {
        await probe.waitForEvent('job-request.deleted', requestId, EVENT_WAIT_MS)
      }
      const bySide = Object.fromEntries(
        deletedEventsOf(probe.events, all).map((event) => [
          event.aggregateId,
          event.data.deletedBy,
        ]),
      )
      expect(bySide).toEqual(
        Object.fromEntries([
          ...received.requestIds.map((requestId) => [requestId, 'owner']),
          [sent._id, 'requester'],
        ]),
      )
      expect(await count(POST_ACCESS_COLLECTION, { userId: leaverId })).toBe(0)
    } finally {
      await probe.stop()
    }
  }, 150_000)

  it('finishes a deletion interrupted after its first step (the sweep)', async () => {
    const { postId, requestIds } = await postWithRequests(owner, 'Fix a gate pangolin')
    // The crash: the deletion was marked, and nothing after it ran.
    await jobs.app.postDeletions.begin({
      _id: postId,
      ownerId,
      title: 'Fix a gate pangolin',
      actorId: ownerId,
      startedAt: new Date(Date.now() - 120_000),
    })
    expect((await owner.get(`/api/jobs/${postId}`)).status).toBe(200)

    const postsProbe = await startEventProbe(Topics.jobsPosts)
    const requestsProbe = await startEventProbe(Topics.jobsRequests)
    try {
      expect(await jobs.app.postsService.finishDeletions(new Date(Date.now() - 60_000))).toBe(1)
      expect((await owner.get(`/api/jobs/${postId}`)).status).toBe(404)
      expect(await count(JOB_REQUESTS_COLLECTION, { postId })).toBe(0)
      expect(await count(POST_ACCESS_COLLECTION, { postId })).toBe(0)
      expect(await count(POST_DELETIONS_COLLECTION, { _id: postId })).toBe(0)
      await postsProbe.waitForEvent('post.deleted', postId)
      for (const requestId of requestIds) {
        await requestsProbe.waitForEvent('job-request.deleted', requestId)
      }
      // Nothing is left to finish: a second run does nothing.
      expect(await jobs.app.postsService.finishDeletions(new Date(Date.now() - 60_000))).toBe(0)
    } finally {
      await postsProbe.stop()
      await requestsProbe.stop()
    }
  }, 120_000)

  it('finishes a deletion interrupted after the post went, and leaves recent ones to their request', async () => {
    const { postId, requestIds } = await postWithRequests(owner, 'Hang shelves kiwi')
    await jobs.app.postDeletions.begin({
      _id: postId,
      ownerId,
      title: 'Hang shelves kiwi',
      actorId: ownerId,
      startedAt: new Date(),
    })
    // Only the post went; its requests and grants are still there.
    await jobs.db.collection('posts').deleteOne({ _id: postId as never })
    expect(await count(JOB_REQUESTS_COLLECTION, { postId })).toBe(2)

    // Begun just now: another request may still be finishing it.
    expect(await jobs.app.postsService.finishDeletions(new Date(Date.now() - 60_000))).toBe(0)
    await waitFor(async () => (await jobs.app.postsService.finishDeletions(new Date())) === 1, {
      timeoutMs: 5_000,
      what: 'the deletion finished',
    })
    expect(await count(JOB_REQUESTS_COLLECTION, { postId })).toBe(0)
    expect(await count(POST_ACCESS_COLLECTION, { postId })).toBe(0)
    const sent = await jobs
      .clientFor(firstWorkerId)
      .get(`/api/jobs/user/${firstWorkerId}/sent-requests`)
    expect(sent.body.map((entry: { _id: string }) => entry._id)).not.toContain(requestIds[0])
  }, 120_000)
})
