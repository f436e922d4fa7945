import { newEvent } from '@marketplace/service-kit'
import { waitFor } from '@marketplace/service-kit/testing'
import { POST_ACCESS_COLLECTION } from '../access/post-access'
import { announceWorker } from '../test/announce-worker'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'
import type { JobRequestDocument } from './request-document'
import { createRequestsRepository } from './requests-repository'

const HIDDEN_PLACE = 'Hidden Lane 7 Austin TX'
const HIDDEN_EMAIL = 'owner.private@example.com'
// The feed follows a decision its process did not make through job-request.decided, which
// the outbox relay's sweep publishes (no write told it, as after a crash): a short sweep
// period here.
const OUTBOX_POLL_MS = '500'
const EVENT_WAIT_MS = 30_000

/**
 * A decision and the access it implies cannot disagree. The requester's access
 * is read from the request itself, so a decision saved alone (as after a crash right after
 * the decision's write, before anything else ran) already gives, or takes back, the view of
 * the post's hidden location and contact value: in details, the owner's list, the sent list
 * and the feed.
 */
describe('jobs service: a decision carries its access (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp
  type Client = ReturnType<JobsTestApp['clientFor']>
  let ownerId: string
  let owner: Client
  let requests: ReturnType<typeof createRequestsRepository>

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_decision_access', { OUTBOX_POLL_MS })
    ownerId = jobs.newUserId()
    owner = jobs.clientFor(ownerId)
    // The store alone, as the decision's own write uses it: nothing after it runs.
    requests = createRequestsRepository(jobs.db, { notifyOutbox: () => undefined })
  }, 150_000)
  afterAll(() => jobs.stop())

  async function privatePostWithRequest(title: string) {
    const workerId = await announceWorker(jobs, title.split(' ')[0] ?? 'Wanda')
    const worker = jobs.clientFor(workerId)
    const { status, body: post } = await owner.post('/api/jobs', {
      title,
      where: HIDDEN_PLACE,
      displayLocation: false,
      contact: 'Email',
      contactValue: HIDDEN_EMAIL,
      displayContact: false,
    })
    expect(status).toBe(201)
    const { body: request } = await worker.post('/api/jobs/requests', { postID: post._id })
    return { postId: post._id as string, requestId: request._id as string, workerId, worker }
  }

  /** Writes only the decision (and its event, in the same write), as the store does. */
  async function saveDecisionOnly(requestId: string, status: 'accepted' | 'rejected') {
    const current = (await requests.findById(requestId)) as JobRequestDocument
    const next = { status, updatedAt: new Date() }
    const event = newEvent('job-request.decided', {
      aggregateId: requestId,
      actorId: ownerId,
      data: {
        requestId,
        postId: current.postId,
        postTitle: current.postTitle,
        ownerId: current.ownerId,
        requesterId: current.requesterId,
        requesterName: 'Someone Worker',
        status,
      },
    })
    expect(await requests.saveDecision(current, next, [event])).not.toBeNull()
  }

  /** What `worker` sees of the post's hidden fields, and whether the owner lists them. */
  async function seenBy(worker: Client, postId: string, workerId: string) {
    const details = await worker.get(`/api/jobs/${postId}`)
    const sent = await worker.get(`/api/jobs/user/${workerId}/sent-requests`)
    const entry = (sent.body as Array<{ post: { _id: string; location: string | null } }>).find(
      (request) => request.post._id === postId,
    )
    const mine = await owner.get('/api/jobs/my-jobs')
    const ownView = (mine.body as Array<{ _id: string; authorizedUsers: string[] }>).find(
      (post) => post._id === postId,
    )
    return {
      location: details.body.location as string | null,
      contactValue: details.body.contactValue as string | null,
      sentLocation: entry?.post.location ?? null,
      listedByOwner: ownView?.authorizedUsers.includes(workerId) ?? false,
    }
  }

  /** The post's location in `worker`'s search results for `word` (the feed index's answer). */
  const feedLocation = async (worker: Client, postId: string, word: string) => {
    const { body } = await worker.get(`/api/jobs?search=${word}`)
    const post = (body.jobs as Array<{ _id: string; location: string | null }>).find(
      (entry) => entry._id === postId,
    )
    return post?.location ?? null
  }

  it('an acceptance saved alone lets the requester see the hidden fields everywhere', async () => {
    const { postId, requestId, workerId, worker } = await privatePostWithRequest('Quilt ocelot')
    expect(await seenBy(worker, postId, workerId)).toEqual({
      location: null,
      contactValue: null,
      sentLocation: null,
      listedByOwner: false,
    })

    await saveDecisionOnly(requestId, 'accepted')

    // No grant was written, and none is needed: at once, on every route that reads the database.
    expect(await seenBy(worker, postId, workerId)).toEqual({
      location: HIDDEN_PLACE,
      contactValue: HIDDEN_EMAIL,
      sentLocation: HIDDEN_PLACE,
      listedByOwner: true,
    })
    expect(await jobs.db.collection(POST_ACCESS_COLLECTION).countDocuments({ postId })).toBe(0)
    await waitFor(async () => (await feedLocation(worker, postId, 'ocelot')) === HIDDEN_PLACE, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the feed showing the accepted requester the location',
    })
  }, 150_000)

  it('a rejection saved alone takes the hidden fields back everywhere', async () => {
    const { postId, requestId, workerId, worker } = await privatePostWithRequest('Varnish tapir')
    expect(
      (await owner.patch(`/api/jobs/requests/${requestId}`, { status: 'accepted' })).status,
    ).toBe(200)
    expect((await seenBy(worker, postId, workerId)).location).toBe(HIDDEN_PLACE)
    expect(await feedLocation(worker, postId, 'tapir')).toBe(HIDDEN_PLACE)

    await saveDecisionOnly(requestId, 'rejected')

    expect(await seenBy(worker, postId, workerId)).toEqual({
      location: null,
      contactValue: null,
      sentLocation: null,
      listedByOwner: false,
    })
    await waitFor(async () => (await feedLocation(worker, postId, 'tapir')) === null, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the feed hiding the location from the rejected requester',
    })
  }, 150_000)

  it('ignores a request grant left in post_access by an earlier version, and start-up deletes it', async () => {
    const { postId, requestId, workerId, worker } = await privatePostWithRequest('Grout wombat')
    await owner.patch(`/api/jobs/requests/${requestId}`, { status: 'rejected' })
    // What the decision's second write used to leave after a crash: a grant the request denies.
    const leftover = `${postId}:request:${workerId}`
    await jobs.db.collection(POST_ACCESS_COLLECTION).insertOne({
      _id: leftover as never,
      postId,
      userId: workerId,
      via: 'request',
      grantedAt: new Date(),
    })
    expect(await seenBy(worker, postId, workerId)).toMatchObject({
      location: null,
      contactValue: null,
      listedByOwner: false,
    })

    await jobs.startReplica()
    await waitFor(
      async () =>
        (await jobs.db
          .collection(POST_ACCESS_COLLECTION)
          .countDocuments({ _id: leftover as never })) === 0,
      { timeoutMs: 30_000, what: 'the leftover request grant deleted at start-up' },
    )
  }, 150_000)
})
