import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { TEST_QUERY, publishEvent, waitFor } from '@marketplace/service-kit/testing'
import {
  POST_ACCESS_COLLECTION,
  POST_ACCESS_LISTS_COLLECTION,
  createPostAccess,
} from '../access/post-access'
import { announceWorker } from '../test/announce-worker'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'
import { POST_REQUEST_LISTS_COLLECTION } from './requests-repository'

// issue 19 §2: who may see a post's hidden fields is read from the post's own lists by _id
// (its requests, its invitations), never by a query over every request, on the real FerretDB.

const EVENT_WAIT_MS = 60_000
const HIDDEN_PLACE = 'Juniper Lane 9 Denver CO'

describe('jobs service: each post’s list of requests and invitations (real FerretDB and Kafka)', () => {
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

  const listOf = async (postId: string) =>
    jobs.db
      .collection<{ _id: string; ids: string[]; complete?: boolean }>(POST_REQUEST_LISTS_COLLECTION)
      .findOne({ _id: `${postId}:requests` }, TEST_QUERY)

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

  it('lists a request on its post when sent and unlists it when withdrawn; a decision writes no list', async () => {
    const post = await privatePost('Paint a shed lynx')
    const { body: request } = await worker.post('/api/jobs/requests', { postID: post._id })
    expect((await listOf(post._id))?.ids).toEqual([request._id])
    expect(await authorizedOn(post._id)).toEqual([])

    await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'accepted' })
    expect((await listOf(post._id))?.ids).toEqual([request._id])
    expect(await authorizedOn(post._id)).toEqual([workerId])
    expect((await sentEntry(request._id)).post.location).toBe(HIDDEN_PLACE)

    await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'rejected' })
    expect(await authorizedOn(post._id)).toEqual([])
    expect((await sentEntry(request._id)).post.location).toBeNull()

    await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'accepted' })
    expect((await worker.delete(`/api/jobs/requests/${request._id}`)).status).toBe(204)
    expect((await listOf(post._id))?.ids).toEqual([])
    expect(await authorizedOn(post._id)).toEqual([])
  })

  it('lists one request of two sent at once (the second is refused and takes its id back)', async () => {
    const post = await privatePost('Move a piano lynx')
    const answers = await Promise.all([
      worker.post('/api/jobs/requests', { postID: post._id }),
      worker.post('/api/jobs/requests', { postID: post._id }),
    ])
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409])
    const created = answers.find((a) => a.status === 201)!.body
    expect((await listOf(post._id))?.ids).toEqual([created._id])
  })

  it('serves requests stored before the lists (the old shape), filling the post’s list once', async () => {
    const post = await privatePost('Stored long ago lynx')
    const { body: request } = await worker.post('/api/jobs/requests', { postID: post._id })
    await owner.patch(`/api/jobs/requests/${request._id}`, { status: 'accepted' })
    // The request as it was stored before the post lists: no list document.
    await jobs.db
      .collection(POST_REQUEST_LISTS_COLLECTION)
      .deleteOne({ _id: `${post._id}:requests` as never }, TEST_QUERY)

    expect(await authorizedOn(post._id)).toEqual([workerId])
    expect(await listOf(post._id)).toMatchObject({ ids: [request._id], complete: true })
  })

  it('leaves none of a deleted post’s requests on its list', async () => {
    const post = await privatePost('Soon gone lynx')
    await worker.post('/api/jobs/requests', { postID: post._id })
    expect((await owner.delete(`/api/jobs/${post._id}`)).status).toBe(204)
    // The list goes with the post; the feed's refresh of the deleted post, which reads who
    // may see it, may leave it again, empty (an empty list is what saves the next read a
    // query), never with a request's id.
    expect((await listOf(post._id))?.ids ?? []).toEqual([])
  })

  it('takes a purged requester off the lists of the posts they requested', async () => {
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
    await waitFor(async () => (await listOf(post._id))?.ids.length === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: "the purged requester's request to leave the post's list",
    })
    expect((await listOf(post._id))?.ids).toEqual([mine._id])
    expect(await authorizedOn(post._id)).toEqual([])
  }, 150_000)

  describe('invitations (post_access), through the module itself', () => {
    const ownListOf = async (postId: string) =>
      jobs.db
        .collection<{ _id: string; ids: string[] }>(POST_ACCESS_LISTS_COLLECTION)
        .findOne({ _id: `${postId}:invited` }, TEST_QUERY)

    it('lists an invitation on its post, reads it by _id, and unlists it on uninvite, post deletion and purge', async () => {
      const access = createPostAccess(jobs.db)
      const [postA, postB] = [jobs.newUserId(), jobs.newUserId()]
      const [ann, ben] = [jobs.newUserId(), jobs.newUserId()]
      await access.invite(postA, ann)
      await access.invite(postA, ann) // a redelivered grant: the same row, listed once
      await access.invite(postA, ben)
      await access.invite(postB, ann)
      expect((await ownListOf(postA))?.ids).toEqual([
        `${postA}:invitation:${ann}`,
        `${postA}:invitation:${ben}`,
      ])
      expect(await access.invitedTo([postA, postB])).toEqual(
        new Map([
          [postA, [ann, ben]],
          [postB, [ann]],
        ]),
      )
      expect(await access.isInvited(postA, ben)).toBe(true)

      await access.uninvite(postA, ben)
      expect(await access.isInvited(postA, ben)).toBe(false)
      expect((await ownListOf(postA))?.ids).toEqual([`${postA}:invitation:${ann}`])

      await access.deleteOfUser(ann)
      expect((await ownListOf(postA))?.ids).toEqual([])
      expect((await ownListOf(postB))?.ids).toEqual([])
      expect(await access.invitedTo([postA, postB])).toEqual(new Map())

      await access.invite(postB, ben)
      await access.deleteOfPost(postB)
      expect(await ownListOf(postB)).toBeNull()
      expect(await access.invitedTo([postB])).toEqual(new Map())
    })

    it('serves invitations stored before the lists, filling the post’s list once', async () => {
      const access = createPostAccess(jobs.db)
      const postId = jobs.newUserId()
      const userId = jobs.newUserId()
      // A row as it was stored before the lists: no list document.
      await jobs.db.collection(POST_ACCESS_COLLECTION).insertOne(
        {
          _id: `${postId}:invitation:${userId}` as never,
          postId,
          userId,
          via: 'invitation',
          grantedAt: new Date(),
        },
        TEST_QUERY,
      )
      expect(await access.invitedTo([postId])).toEqual(new Map([[postId, [userId]]]))
      expect(await ownListOf(postId)).toMatchObject({
        ids: [`${postId}:invitation:${userId}`],
        complete: true,
      })
    })
  })
})
