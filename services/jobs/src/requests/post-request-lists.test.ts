import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { TEST_QUERY, publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { createPostAccess } from '../access/post-access'
import { announceWorker } from '../test/announce-worker'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'

// Who may see a post's hidden fields is read from the post's own requests and invitations (one
// indexed query each for the posts a view shows), on the real FerretDB: granted by an
// accepted request or an invitation, taken back by a decision, a withdrawal, the post's
// deletion or the purge of the user.

const EVENT_WAIT_MS = 60_000
const HIDDEN_PLACE = 'Juniper Lane 9 Denver CO'

describe('jobs service: who may see a post’s hidden fields (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp
  type Client = ReturnType<JobsTestApp['clientFor']>
  let owner: Client
  let workerId: string
  let worker: Client

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_post_request_lists')
    owner = jobs.clientFor(jobs.newUserId())
    workerId = await announceWorker(jobs, 'Petra', EVENT_WAIT_MS)
    worker = jobs.clientFor(workerId)
  }, 150_000)
  afterAll(() => jobs.stop())

  /** The post's requests as the service reads them (one query on `one_request_per_post`). */
  const requestIdsOn = async (postId: string) =>
    (
      await jobs.db
        .collection<{ _id: string }>('job_requests')
        .find({ postId }, { ...TEST_QUERY, projection: { _id: 1 } })
        .toArray()
    ).map((request) => request._id)

  const privatePost = async (title: string) =>
    (
      await owner.post('/api/jobs', {
        title,
        where: HIDDEN_PLACE,
        displayLocation: false,
      })
    ).body as { _id: string }

  /** My posts as the owner sees them: who may see each post's hidden fields. */
  const authorizedOn = async (postId: string) =>
    (await owner.get('/api/jobs/my-jobs')).body.find((p: { _id: string }) => p._id === postId)
      ?.authorizedUsers as string[]

  const sentEntry = async (requestId: string) =>
    (await worker.get(`/api/jobs/user/${workerId}/sent-requests`)).body.find(
      (entry: { _id: string }) => entry._id === requestId,
    )

  it('grants the hidden fields to an accepted requester, and takes them back on rejection and withdrawal', async () => {
    const post = await privatePost('Paint a shed lynx')
    const { body: request } = await worker.post('/api/jobs/requests', { postID: post._id })
    expect(await authorizedOn(post._id)).toEqual([])

    await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'accepted' })
    expect(await authorizedOn(post._id)).toEqual([workerId])
    expect((await sentEntry(request._id)).post.location).toBe(HIDDEN_PLACE)

    await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'rejected' })
    expect(await authorizedOn(post._id)).toEqual([])
    expect((await sentEntry(request._id)).post.location).toBeNull()

    await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'accepted' })
    expect((await worker.delete(`/api/jobs/requests/${request._id}`)).status).toBe(204)
    expect(await requestIdsOn(post._id)).toEqual([])
    expect(await authorizedOn(post._id)).toEqual([])
  })

  it('stores one request of two sent at once (the unique index refuses the second)', async () => {
    const post = await privatePost('Move a piano lynx')
    const answers = await Promise.all([
      worker.post('/api/jobs/requests', { postID: post._id }),
      worker.post('/api/jobs/requests', { postID: post._id }),
    ])
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409])
    const created = answers.find((a) => a.status === 201)!.body
    expect(await requestIdsOn(post._id)).toEqual([created._id])
  })

  it('leaves none of a deleted post’s requests', async () => {
    const post = await privatePost('Soon gone lynx')
    await worker.post('/api/jobs/requests', { postID: post._id })
    expect((await owner.delete(`/api/jobs/${post._id}`)).status).toBe(204)
    expect(await requestIdsOn(post._id)).toEqual([])
  })

  it('takes a purged requester’s requests and grants off the posts they requested', async () => {
    const leaverId = await announceWorker(jobs, 'Quentin', EVENT_WAIT_MS)
    const leaver = jobs.clientFor(leaverId)
    const post = await privatePost('Clean gutters lynx')
    const { body: theirs } = await leaver.post('/api/jobs/requests', { postID: post._id })
    const { body: mine } = await worker.post('/api/jobs/requests', { postID: post._id })
    await owner.patch(`/api/jobs/requests/${theirs._id}`, { status: 'accepted' })
    expect(await authorizedOn(post._id)).toEqual([leaverId])

    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deleted', {
        aggregateId: leaverId,
        actorId: null,
        data: { userId: leaverId },
      }),
    )
    await waitFor(async () => (await requestIdsOn(post._id)).length === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the purged requester's request to go",
    })
    expect(await requestIdsOn(post._id)).toEqual([mine._id])
    expect(await authorizedOn(post._id)).toEqual([])
  }, 150_000)

  describe('invitations (post_access), through the module itself', () => {
    it('reads a post’s invitations, and none after uninvite, post deletion and purge', async () => {
      const access = createPostAccess(jobs.db)
      const [postA, postB] = [jobs.newUserId(), jobs.newUserId()]
      const [ann, ben] = [jobs.newUserId(), jobs.newUserId()]
      await access.invite(postA, ann)
      await access.invite(postA, ann) // a redelivered grant: the same row, once
      await access.invite(postA, ben)
      await access.invite(postB, ann)
      expect(await access.invitedTo([postA, postB])).toEqual(
        new Map([
          [postA, [ann, ben]],
          [postB, [ann]],
        ]),
      )
      expect(await access.isInvited(postA, ben)).toBe(true)

      await access.uninvite(postA, ben)
      expect(await access.isInvited(postA, ben)).toBe(false)
      expect(await access.invitedTo([postA])).toEqual(new Map([[postA, [ann]]]))

      await access.deleteOfUser(ann)
      expect(await access.invitedTo([postA, postB])).toEqual(new Map())

      await access.invite(postB, ben)
      await access.deleteOfPost(postB)
      expect(await access.invitedTo([postB])).toEqual(new Map())
    })
  })
})
