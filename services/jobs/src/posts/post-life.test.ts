import type { DomainEvent } from '@marketplace/contracts/events'
import { EXPIRY_WARNING_DAYS } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { recordPublishedEvents, waitFor } from '@marketplace/service-kit/testing'
import { announceWorker } from '../test/announce-worker'
import { startJobsTestApp, type JobsApp, type JobsTestApp } from '../test/jobs-test-app'
import { POSTS_COLLECTION, type PostDocument } from './post-document'

const DAY_MS = 24 * 60 * 60 * 1000
/** 'YYYY-MM-DD' (UTC) `days` from now. */
const dayFromNow = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10)
/** The instant a post expiring on `day` leaves the feed: the next day at 00:00 UTC. */
const endOf = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS)

/**
 * The life of a post (docs/posts.md, "The life of a post"): the expiry warning three days
 * before, the pending requesters told at expiry and at fill, relisting, through the real
 * service and, for the warning, two instances sweeping the same database at once.
 */
describe('jobs service: expiry warning, mark filled, relist (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp
  let replica: JobsApp
  let worker: ReturnType<JobsTestApp['clientFor']>
  let otherWorker: ReturnType<JobsTestApp['clientFor']>
  let workerId: string
  let otherWorkerId: string
  let published: Array<ReturnType<typeof recordPublishedEvents>>

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_post_life')
    replica = (await jobs.startReplica()).app
    published = [recordPublishedEvents(jobs.app), recordPublishedEvents(replica)]
    workerId = await announceWorker(jobs, 'Pia')
    otherWorkerId = await announceWorker(jobs, 'Quentin')
    worker = jobs.clientFor(workerId)
    otherWorker = jobs.clientFor(otherWorkerId)
  }, 150_000)
  afterAll(async () => {
    for (const recorder of published ?? []) recorder.stop()
    await jobs?.stop()
  })

  /** The events of this type about this post that either instance's relay published. */
  const publishedAbout = <N extends DomainEvent['type']>(type: N, postId: string) =>
    published
      .flatMap((recorder) => recorder.events())
      .filter((event) => event.type === type && event.aggregateId === postId) as Array<
      DomainEvent<N>
    >
  /** Waits until `count` such events were published, then a moment more to see no other. */
  async function expectPublishedOnce<N extends DomainEvent['type']>(type: N, postId: string) {
    await waitFor(() => publishedAbout(type, postId).length > 0, {
      timeoutMs: 30_000,
      what: `${type} for ${postId}`,
    })
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const events = publishedAbout(type, postId)
    expect(events).toHaveLength(1)
    return events[0]!
  }
  const searchIds = async (word: string) =>
    (
      (await jobs.clientFor(null).get(`/api/jobs?search=${word}`)).body.jobs as Array<{
        _id: string
      }>
    ).map((post) => post._id)
  const myPost = async (owner: ReturnType<JobsTestApp['clientFor']>, postId: string) =>
    ((await owner.get('/api/jobs/my-jobs')).body as Array<Record<string, unknown>>).find(
      (post) => post._id === postId,
    )!

  it('warns the owner once, three days before the post expires, with two instances sweeping', async () => {
    const owner = jobs.clientFor(jobs.newUserId())
    const lastDay = dayFromNow(10)
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Paint a porch',
      where: 'Austin TX',
      expirationDate: lastDay,
    })
    expect((await myPost(owner, post._id)).state).toBe('live')
    const warningAt = new Date(endOf(lastDay).getTime() - EXPIRY_WARNING_DAYS * DAY_MS)

    // A minute before the three days, nothing is due.
    const early = new Date(warningAt.getTime() - 60_000)
    expect(await jobs.app.postLife.sweep(early)).toEqual({ warned: 0, closed: 0 })
    // At the three days, both instances sweep at once: one of them sends the warning.
    const results = await Promise.all([
      jobs.app.postLife.sweep(warningAt),
      replica.postLife.sweep(warningAt),
      jobs.app.postLife.sweep(warningAt),
    ])
    expect(results.reduce((sum, result) => sum + result.warned, 0)).toBe(1)
    // Later sweeps before the expiry send nothing more.
    const later = new Date(warningAt.getTime() + DAY_MS)
    const again = await Promise.all([jobs.app.postLife.sweep(later), replica.postLife.sweep(later)])
    expect(again).toEqual([
      { warned: 0, closed: 0 },
      { warned: 0, closed: 0 },
    ])
    const warning = await expectPublishedOnce('post.expiring', post._id)
    expect(warning.data).toEqual({
      postId: post._id,
      ownerId: owner.userId,
      title: 'Paint a porch',
      expirationDate: lastDay,
    })
  }, 60_000)

  it('warns at once a post published closer to its end than three days (the timer sweeps)', async () => {
    const sweeping = await startJobsTestApp('jobs_post_life_timer', { POST_LIFE_SWEEP_MS: '300' })
    const recorder = recordPublishedEvents(sweeping.app)
    try {
      const owner = sweeping.clientFor(sweeping.newUserId())
      const { body: post } = await owner.post('/api/jobs', {
        title: 'Walk a dog',
        where: 'Austin TX',
        expirationDate: dayFromNow(1),
      })
      const warned = await waitFor(
        () =>
          recorder
            .events()
            .find((event) => event.type === 'post.expiring' && event.aggregateId === post._id),
        { timeoutMs: 30_000, what: 'the warning sent by the timer' },
      )
      expect(warned.data).toMatchObject({ ownerId: owner.userId, title: 'Walk a dog' })
      const listed = (await owner.get('/api/jobs/my-jobs')).body as Array<{ state: string }>
      expect(listed[0]!.state).toBe('expiring-soon')
    } finally {
      recorder.stop()
      await sweeping.stop()
    }
  }, 120_000)

  it('tells the pending requesters once when the post expires, not the accepted one', async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const lastDay = dayFromNow(1)
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Fold laundry',
      where: 'Austin TX',
      expirationDate: lastDay,
    })
    expect((await worker.post('/api/jobs/requests', { postID: post._id })).status).toBe(201)
    const { body: accepted } = await otherWorker.post('/api/jobs/requests', { postID: post._id })
    expect(
      (await owner.patch(`/api/jobs/requests/${accepted._id}`, { status: 'accepted' })).status,
    ).toBe(200)

    const expiredAt = new Date(endOf(lastDay).getTime() + 60_000)
    const results = await Promise.all([
      jobs.app.postLife.sweep(expiredAt),
      replica.postLife.sweep(expiredAt),
    ])
    expect(results.reduce((sum, result) => sum + result.closed, 0)).toBe(1)
    expect(await jobs.app.postLife.sweep(new Date(expiredAt.getTime() + DAY_MS))).toEqual({
      warned: 0,
      closed: 0,
    })
    const closed = await expectPublishedOnce('post.closed', post._id)
    expect(closed.data).toEqual({
      postId: post._id,
      ownerId,
      title: 'Fold laundry',
      reason: 'expired',
      pendingRequesterIds: [workerId],
    })
    // The post went past its expiry with no warning: it was never due before the end.
    expect(publishedAbout('post.expiring', post._id)).toEqual([])
  }, 60_000)

  it('mark filled: owner only, closes to requests, leaves feed and search, keeps requests; told once', async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Haul mulch quokka',
      where: 'Austin TX',
    })
    const { body: request } = await worker.post('/api/jobs/requests', { postID: post._id })
    expect(await searchIds('quokka')).toEqual([post._id])

    // Anyone but the owner: as if the post did not exist.
    expect((await worker.post(`/api/jobs/${post._id}/fill`, undefined)).status).toBe(404)
    expect((await jobs.clientFor(null).post(`/api/jobs/${post._id}/fill`, undefined)).status).toBe(
      401,
    )
    expect((await owner.post('/api/jobs/not-an-id/fill', undefined)).status).toBe(404)

    const filled = await owner.post(`/api/jobs/${post._id}/fill`, undefined)
    expect(filled.status).toBe(200)
    expect(filled.body).toMatchObject({ _id: post._id, state: 'filled', isOnline: true })
    expect(typeof filled.body.filledAt).toBe('string')

    // Out of the feed and search on both instances, details still readable.
    expect(await searchIds('quokka')).toEqual([])
    const feed = await jobs.clientFor(null).get('/api/jobs?limit=100')
    expect(feed.text).not.toContain(post._id)
    await waitFor(
      async () => {
        const answer = await fetch(`${await replicaUrl()}/api/jobs?search=quokka`)
        return ((await answer.json()) as { jobs: unknown[] }).jobs.length === 0
      },
      { timeoutMs: 30_000, what: 'the filled post out of the replica feed' },
    )
    const details = await worker.get(`/api/jobs/${post._id}`)
    expect(details.status).toBe(200)
    expect(details.body.state).toBeUndefined()

    // No new requests, with the reason.
    const refused = await otherWorker.post('/api/jobs/requests', { postID: post._id })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe(Messages.requests.postFilled)
    // The pending request (and so its conversation) stays.
    const received = await owner.get(`/api/jobs/user/${ownerId}/received-requests`)
    expect((received.body as Array<{ _id: string }>).map((entry) => entry._id)).toEqual([
      request._id,
    ])

    const closed = await expectPublishedOnce('post.closed', post._id)
    expect(closed.data).toMatchObject({ reason: 'filled', pendingRequesterIds: [workerId] })
    expect(publishedAbout('post.updated', post._id).at(-1)!.data.isOnline).toBe(false)
    // Marking it again changes nothing and tells no one again.
    expect((await owner.post(`/api/jobs/${post._id}/fill`, undefined)).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(publishedAbout('post.closed', post._id)).toHaveLength(1)
    // A filled post has nothing left to tell at its expiry.
    expect(
      (await jobs.db.collection<PostDocument>(POSTS_COLLECTION).findOne({ _id: post._id }))!
        .lifeNoticeAt,
    ).toBeNull()
  }, 90_000)

  async function replicaUrl() {
    const address = replica.server.address() as { port: number }
    return `http://127.0.0.1:${address.port}`
  }

  it('relist: back at the top of the feed for 30 days, once a day, owner only', async () => {
    const owner = jobs.clientFor(jobs.newUserId())
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Sort records ocelot',
      where: 'Austin TX',
    })
    // Newer posts push it down the feed.
    await owner.post('/api/jobs', { title: 'Water plants', where: 'Austin TX' })

    // A live post far from its end is not relisted.
    const live = await owner.post(`/api/jobs/${post._id}/relist`, undefined)
    expect(live.status).toBe(400)
    expect(live.body.message).toBe(Messages.post.relistOnlyWhenClosed)

    await owner.post(`/api/jobs/${post._id}/fill`, undefined)
    expect((await worker.post(`/api/jobs/${post._id}/relist`, undefined)).status).toBe(404)
    const relisted = await owner.post(`/api/jobs/${post._id}/relist`, undefined)
    expect(relisted.status).toBe(200)
    expect(relisted.body).toMatchObject({
      state: 'live',
      isOnline: true,
      expirationDate: dayFromNow(30),
    })
    expect(relisted.body.filledAt).toBeUndefined()
    expect(Date.parse(relisted.body.createdAt)).toBeGreaterThan(Date.parse(post.createdAt))
    expect(Date.parse(relisted.body.relistableAt)).toBeGreaterThan(Date.now() + DAY_MS - 60_000)

    // Top of the feed (newest first) and in search again; requests are taken again.
    const top = await jobs.clientFor(null).get('/api/jobs?limit=1')
    expect(top.body.jobs[0]._id).toBe(post._id)
    expect(await searchIds('ocelot')).toEqual([post._id])
    expect((await otherWorker.post('/api/jobs/requests', { postID: post._id })).status).toBe(201)

    // Once a day: filled again at once, the relist is refused with when it can be.
    await owner.post(`/api/jobs/${post._id}/fill`, undefined)
    const tooSoon = await owner.post(`/api/jobs/${post._id}/relist`, undefined)
    expect(tooSoon.status).toBe(429)
    expect(tooSoon.body.message).toMatch(
      /^A post can be relisted once a day: you can relist this one again after \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    )
  }, 60_000)

  it('relists an expired post, which the sweep then warns again before its new end', async () => {
    const owner = jobs.clientFor(jobs.newUserId())
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Clean gutters',
      where: 'Austin TX',
      expirationDate: dayFromNow(20),
    })
    // Time passes: the post's last day was yesterday (as its expiry sweep would find it).
    const yesterday = dayFromNow(-1)
    await jobs.db
      .collection<PostDocument>(POSTS_COLLECTION)
      .updateOne(
        { _id: post._id },
        { $set: { expirationDate: yesterday, expiresAt: endOf(yesterday), lifeNoticeAt: null } },
      )
    expect((await myPost(owner, post._id)).state).toBe('expired')
    expect((await worker.post('/api/jobs/requests', { postID: post._id })).body.message).toBe(
      Messages.requests.postNotAccepting,
    )

    const relisted = await owner.post(`/api/jobs/${post._id}/relist`, undefined)
    expect(relisted.status).toBe(200)
    expect(relisted.body.state).toBe('live')
    const newEnd = endOf(dayFromNow(30))
    const dueAt = new Date(newEnd.getTime() - EXPIRY_WARNING_DAYS * DAY_MS)
    expect(
      (await jobs.db.collection<PostDocument>(POSTS_COLLECTION).findOne({ _id: post._id }))!
        .lifeNoticeAt,
    ).toEqual(dueAt)
    expect((await jobs.app.postLife.sweep(dueAt)).warned).toBeGreaterThanOrEqual(1)
    expect((await expectPublishedOnce('post.expiring', post._id)).data.expirationDate).toBe(
      dayFromNow(30),
    )
  }, 60_000)

  it('gives posts stored before the life notices theirs at start-up: a warning ahead, none for an old expiry', async () => {
    const owner = jobs.clientFor(jobs.newUserId())
    const lastDay = dayFromNow(10)
    const create = async (title: string, expirationDate?: string) =>
      (await owner.post('/api/jobs', { title, where: 'Austin TX', expirationDate })).body
        ._id as string
    const ahead = await create('Mend a fence', lastDay)
    const longGone = await create('Rake leaves', dayFromNow(20))
    const endless = await create('Teach chess')
    const posts = jobs.db.collection<PostDocument>(POSTS_COLLECTION)
    // As an older version stored them: no life-notice fields at all; one expired a week ago.
    const weekAgo = dayFromNow(-7)
    await posts.updateMany(
      { _id: { $in: [ahead, longGone, endless] } },
      { $unset: { lifeNoticeAt: '', expiryWarnedFor: '', expiryClosedFor: '' } },
    )
    await posts.updateOne(
      { _id: longGone },
      { $set: { expirationDate: weekAgo, expiresAt: endOf(weekAgo) } },
    )

    // An instance starting now sets them, in the background of its start.
    const restarted = await jobs.startReplica()
    published.push(recordPublishedEvents(restarted.app))
    const stored = await waitFor(
      async () => {
        const found = await posts.find({ _id: { $in: [ahead, longGone, endless] } }).toArray()
        return found.every((post) => post.lifeNoticeAt !== undefined) ? found : undefined
      },
      { timeoutMs: 30_000, what: 'life notices set on the older posts' },
    )
    const byId = new Map(stored.map((post) => [post._id, post]))
    const warningAt = new Date(endOf(lastDay).getTime() - EXPIRY_WARNING_DAYS * DAY_MS)
    expect(byId.get(ahead)!.lifeNoticeAt).toEqual(warningAt)
    expect(byId.get(longGone)!.lifeNoticeAt).toBeNull()
    expect(byId.get(longGone)!.expiryClosedFor).toEqual(endOf(weekAgo))
    expect(byId.get(endless)!.lifeNoticeAt).toBeNull()

    // The sweep then warns the live one when its time comes, and nothing is sent for the others.
    expect((await restarted.app.postLife.sweep(warningAt)).warned).toBeGreaterThanOrEqual(1)
    expect((await expectPublishedOnce('post.expiring', ahead)).data.expirationDate).toBe(lastDay)
    expect(publishedAbout('post.closed', longGone)).toHaveLength(0)
    expect(publishedAbout('post.expiring', endless)).toHaveLength(0)
  }, 90_000)
})
