import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import { USERS_COLLECTION } from '../users/user-directory'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
const EVENT_WAIT_MS = 60_000

const HIDDEN_PLACE = 'Maple Court 4 Denver CO'
const HIDDEN_NUMBER = '3035550142'

describe('jobs service: requests on posts (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp
  type Client = ReturnType<JobsTestApp['clientFor']>
  let owner: Client
  let workerId: string
  let worker: Client
  let stranger: Client

  /** A user as the people service announces them: registered, then with a worker profile. */
  async function makeWorker(firstName: string): Promise<string> {
    const userId = jobs.newUserId()
    await publishEvent(
      Topics.authUsers,
      newEvent('user.registered', {
        aggregateId: userId,
        actorId: userId,
        data: {
          userId,
          email: `${firstName.toLowerCase()}@example.com`,
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
        data: {
          userId,
          isWorker: true,
          title: 'Mover',
          skills: ['Lifting', 'Driving'],
          profilePicture: null,
        },
      }),
    )
    await waitFor(
      async () =>
        (await jobs.db
          .collection(USERS_COLLECTION)
          .findOne({ _id: userId as never, isWorker: true, firstName })) !== null,
      { timeoutMs: EVENT_WAIT_MS, what: `${firstName}'s worker profile to reach jobs` },
    )
    return userId
  }

  const privatePost = async (title: string) =>
    (
      await owner.post('/api/jobs', {
        title,
        where: HIDDEN_PLACE,
        contact: 'Phone',
        contactValue: HIDDEN_NUMBER,
        displayLocation: false,
        displayContact: false,
      })
    ).body

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_requests')
    owner = jobs.clientFor(jobs.newUserId())
    stranger = jobs.clientFor(jobs.newUserId())
    workerId = await makeWorker('Wanda')
    worker = jobs.clientFor(workerId)
  }, 150_000)
  afterAll(() => jobs.stop())

  it('lets a worker request a live post once (409 after), and publishes job-request.created', async () => {
    const probe = await startEventProbe(Topics.jobsRequests)
    try {
      const post = await privatePost('Carry boxes to the van')
      const sent = await worker.post('/api/jobs/requests', { postID: post._id })
      expect(sent.status).toBe(201)
      expect(sent.body).toMatchObject({ postId: post._id, status: 'pending' })
      const again = await worker.post('/api/jobs/requests', { postID: post._id })
      expect(again.status).toBe(409)
      expect(again.body.message).toBe(Messages.requests.alreadyRequestedPost)
      const event = await probe.waitForEvent('job-request.created', sent.body._id)
      expect(event.data).toEqual({
        requestId: sent.body._id,
        postId: post._id,
        postTitle: 'Carry boxes to the van',
        ownerId: owner.userId,
        requesterId: workerId,
        requesterName: 'Wanda Worker',
        status: 'pending',
      })
    } finally {
      await probe.stop()
    }
  })

  it('answers one 201 and one 409 to two parallel requests for the same post', async () => {
    const post = await privatePost('Parallel request check')
    const answers = await Promise.all([
      worker.post('/api/jobs/requests', { postID: post._id }),
      worker.post('/api/jobs/requests', { postID: post._id }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409])
  })

  it('refuses non-workers (403), own posts (400), offline posts (409), unknown posts (404) and bad ids (400)', async () => {
    const post = await privatePost('Rules check')
    const notWorker = await stranger.post('/api/jobs/requests', { postID: post._id })
    expect(notWorker.status).toBe(403)
    expect(notWorker.body.message).toBe(Messages.requests.workerProfileRequired)
    const ownerAsWorker = jobs.clientFor(owner.userId)
    expect(
      (await ownerAsWorker.post('/api/jobs/requests', { postID: post._id })).body.message,
    ).toBe(Messages.requests.ownPost)
    await owner.put(`/api/jobs/${post._id}`, { isOnline: false })
    const offline = await worker.post('/api/jobs/requests', { postID: post._id })
    expect(offline.status).toBe(400)
    expect(offline.body.message).toBe('This post is not taking requests right now')
    expect((await worker.post('/api/jobs/requests', { postID: 'f'.repeat(24) })).status).toBe(404)
    expect((await worker.post('/api/jobs/requests', { postID: 'nope' })).status).toBe(400)
    expect((await worker.post('/api/jobs/requests', {})).body.message).toBe(
      Messages.requests.invalid,
    )
    expect(
      (await jobs.clientFor(null).post('/api/jobs/requests', { postID: post._id })).status,
    ).toBe(401)
  })

  it('shows the requester the hidden fields only while accepted; the owner decides and undoes', async () => {
    const post = await privatePost('Privacy through acceptance')
    const { body: request } = await worker.post('/api/jobs/requests', { postID: post._id })
    const sentEntry = async () =>
      (await worker.get(`/api/jobs/user/${workerId}/sent-requests`)).body.find(
        (entry: { _id: string }) => entry._id === request._id,
      )
    const before = await worker.get(`/api/jobs/user/${workerId}/sent-requests`)
    expect(before.text).not.toContain(HIDDEN_PLACE)
    expect(before.text).not.toContain(HIDDEN_NUMBER)
    // A private contact (method and value) waits for acceptance, as the location does.
    expect((await sentEntry()).post).toMatchObject({
      location: null,
      contact: null,
      contactValue: null,
      title: 'Privacy through acceptance',
    })

    // Only the owner decides; the requester and strangers get 404.
    expect(
      (await worker.patch(`/api/jobs/requests/${request._id}`, { status: 'accepted' })).status,
    ).toBe(404)
    expect(
      (await stranger.patch(`/api/jobs/requests/${request._id}`, { status: 'accepted' })).status,
    ).toBe(404)
    expect(
      (await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'maybe' })).status,
    ).toBe(400)

    const accepted = await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'accepted' })
    expect(accepted.status).toBe(200)
    expect(accepted.body.status).toBe('accepted')
    expect((await sentEntry()).post).toMatchObject({
      location: HIDDEN_PLACE,
      contact: 'Phone',
      contactValue: HIDDEN_NUMBER,
      owner: { _id: owner.userId },
    })
    expect((await worker.get(`/api/jobs/${post._id}`)).body.location).toBe(HIDDEN_PLACE)

    const undone = await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'pending' })
    expect(undone.body.status).toBe('pending')
    expect((await worker.get(`/api/jobs/user/${workerId}/sent-requests`)).text).not.toContain(
      HIDDEN_PLACE,
    )
    expect((await worker.get(`/api/jobs/user/${workerId}/sent-requests`)).text).not.toContain(
      HIDDEN_NUMBER,
    )
    expect((await worker.get(`/api/jobs/${post._id}`)).body.location).toBeNull()
  })

  it('lists received requests with the requester card and the post, for the owner only (403 otherwise)', async () => {
    const post = await privatePost('Received list check')
    await worker.post('/api/jobs/requests', { postID: post._id })
    const received = await owner.get(`/api/jobs/user/${owner.userId}/received-requests`)
    expect(received.status).toBe(200)
    const entry = received.body.find(
      (item: { post: { _id: string } }) => item.post._id === post._id,
    )
    expect(entry).toMatchObject({
      status: 'pending',
      requester: {
        _id: workerId,
        name: 'Wanda Worker',
        email: 'wanda@example.com',
        isWorker: true,
        title: 'Mover',
        skills: ['Lifting', 'Driving'],
      },
      post: {
        _id: post._id,
        title: 'Received list check',
        location: HIDDEN_PLACE,
        status: 'online',
      },
    })
    expect((await stranger.get(`/api/jobs/user/${owner.userId}/received-requests`)).status).toBe(
      403,
    )
    expect((await stranger.get(`/api/jobs/user/${workerId}/sent-requests`)).status).toBe(403)
    expect(
      (await jobs.clientFor(null).get(`/api/jobs/user/${workerId}/sent-requests`)).status,
    ).toBe(401)
  })

  it('lets the requester withdraw and the owner delete, takes access back, and publishes job-request.deleted', async () => {
    const probe = await startEventProbe(Topics.jobsRequests)
    try {
      const post = await privatePost('Withdraw check')
      const { body: mine } = await worker.post('/api/jobs/requests', { postID: post._id })
      await owner.patch(`/api/jobs/requests/${mine._id}`, { status: 'accepted' })
      expect((await stranger.delete(`/api/jobs/requests/${mine._id}`)).status).toBe(404)
      expect((await worker.delete(`/api/jobs/requests/${mine._id}`)).status).toBe(204)
      expect((await worker.get(`/api/jobs/${post._id}`)).body.location).toBeNull()
      const withdrawn = await probe.waitForEvent('job-request.deleted', mine._id)
      expect(withdrawn.data).toMatchObject({ deletedBy: 'requester', status: 'accepted' })
      expect((await worker.delete(`/api/jobs/requests/${mine._id}`)).status).toBe(404)

      const secondWorker = jobs.clientFor(await makeWorker('Bruno'))
      const { body: theirs } = await secondWorker.post('/api/jobs/requests', { postID: post._id })
      expect((await owner.delete(`/api/jobs/requests/${theirs._id}`)).status).toBe(204)
      const deleted = await probe.waitForEvent('job-request.deleted', theirs._id)
      expect(deleted.data).toMatchObject({ deletedBy: 'owner', requesterName: 'Bruno Worker' })
    } finally {
      await probe.stop()
    }
  }, 150_000)

  it('drops sent entries whose post is gone, and removes the requests of a deleted post', async () => {
    const post = await privatePost('Soon deleted post')
    const { body: request } = await worker.post('/api/jobs/requests', { postID: post._id })
    await owner.delete(`/api/jobs/${post._id}`)
    const sent = await worker.get(`/api/jobs/user/${workerId}/sent-requests`)
    expect(sent.body.map((entry: { _id: string }) => entry._id)).not.toContain(request._id)
    const received = await owner.get(`/api/jobs/user/${owner.userId}/received-requests`)
    expect(received.body.map((entry: { _id: string }) => entry._id)).not.toContain(request._id)
  })
})
