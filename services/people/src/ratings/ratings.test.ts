import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import {
  publishEvent,
  startEventProbe,
  TEST_QUERY,
  waitFor,
} from '@marketplace/service-kit/testing'
import { PROFILES_COLLECTION } from '../profiles/profile-document'
import {
  EVENT_WAIT_MS,
  startPeopleTestApp,
  workerProfileBody,
  type PeopleTestApp,
} from '../test/people-test-app'
import { KNOWN_JOB_REQUESTS_COLLECTION } from './known-job-requests'
import { RATINGS_COLLECTION, RATING_EDIT_WINDOW_MS } from './rating-document'
import { RatingMessages } from './rating-input'

const DAY_MS = 24 * 60 * 60 * 1000

describe('people service: rate your workers (real FerretDB and Kafka)', () => {
  let people: PeopleTestApp
  type Client = ReturnType<PeopleTestApp['clientFor']>
  let ownerId: string
  let owner: Client
  let wandaId: string
  let brunoId: string
  let strangerId: string
  let stranger: Client

  async function worker(first: string, last: string): Promise<string> {
    const userId = await people.registerUser(first, last)
    const saved = await people
      .clientFor(userId)
      .put(`/api/users/${userId}/worker-profile`, workerProfileBody({ title: `${first} mover` }))
    expect(saved.status).toBe(200)
    return userId
  }

  /**
   * A request on a post as the jobs service announces it; waits until the people service
   * knows the request in that state.
   */
  async function jobRequest(
    type: 'job-request.created' | 'job-request.decided' | 'job-request.deleted',
    request: {
      requestId: string
      ownerId: string
      requesterId: string
      status: 'pending' | 'accepted' | 'rejected'
      postTitle?: string
      postId?: string
    },
  ): Promise<void> {
    const data = {
      requestId: request.requestId,
      postId: request.postId ?? `post-of-${request.requestId}`,
      postTitle: request.postTitle ?? `Post of ${request.requestId}`,
      ownerId: request.ownerId,
      requesterId: request.requesterId,
      requesterName: 'Some Worker',
      status: request.status,
    }
    const fields = { aggregateId: request.requestId, actorId: request.ownerId }
    await publishEvent(
      Topics.jobsRequests,
      type === 'job-request.deleted'
        ? newEvent(type, { ...fields, data: { ...data, deletedBy: 'owner' } })
        : newEvent(type, { ...fields, data }),
    )
    await waitFor(
      async () => {
        const known = await people.db
          .collection(KNOWN_JOB_REQUESTS_COLLECTION)
          .findOne({ _id: request.requestId as never })
        return (
          known?.status === request.status && known.deleted === (type === 'job-request.deleted')
        )
      },
      { timeoutMs: EVENT_WAIT_MS, what: `${type} of ${request.requestId} known` },
    )
  }

  /** A request created and then accepted, as the jobs service announces both. */
  async function acceptedRequest(ownerOf: string, requesterId: string, postTitle?: string) {
    const requestId = new ObjectId().toHexString()
    const request = { requestId, ownerId: ownerOf, requesterId, postTitle }
    await jobRequest('job-request.created', { ...request, status: 'pending' })
    await jobRequest('job-request.decided', { ...request, status: 'accepted' })
    return requestId
  }

  const ratingOf = async (userId: string, viewer: Client = stranger) =>
    (await viewer.get(`/api/users/${userId}`)).body.rating

  beforeAll(async () => {
    people = await startPeopleTestApp('people_ratings')
    ownerId = await people.registerUser('Olga', 'Owner')
    owner = people.clientFor(ownerId)
    wandaId = await worker('Wanda', 'Worker')
    brunoId = await worker('Bruno', 'Builder')
    strangerId = await people.registerUser('Sam', 'Stranger')
    stranger = people.clientFor(strangerId)
  }, 180_000)

  afterAll(async () => {
    await people?.stop()
  })

  it("lists the owner's accepted requests with the worker, newest first, and nothing else", async () => {
    const first = await acceptedRequest(ownerId, wandaId, 'Move a sofa')
    const pending = new ObjectId().toHexString()
    await jobRequest('job-request.created', {
      requestId: pending,
      ownerId,
      requesterId: brunoId,
      status: 'pending',
    })
    const second = await acceptedRequest(ownerId, brunoId, 'Build a shed')
    // Accepted, but on the stranger's post.
    await acceptedRequest(strangerId, wandaId, 'Not yours')

    const list = await owner.get('/api/people/ratings/rateable')
    expect(list.status).toBe(200)
    expect(list.body).toEqual([
      {
        requestId: second,
        status: 'accepted',
        post: { _id: `post-of-${second}`, title: 'Build a shed' },
        worker: { _id: brunoId, name: 'Bruno Builder', profilePicture: null, title: 'Bruno mover' },
        rating: null,
      },
      {
        requestId: first,
        status: 'accepted',
        post: { _id: `post-of-${first}`, title: 'Move a sofa' },
        worker: { _id: wandaId, name: 'Wanda Worker', profilePicture: null, title: 'Wanda mover' },
        rating: null,
      },
    ])
    expect((await people.clientFor(null).get('/api/people/ratings/rateable')).status).toBe(401)
    expect((await people.clientFor(brunoId).get('/api/people/ratings/rateable')).body).toEqual([])
  })

  it('refuses what is not an accepted request of the caller: 404, 409 and 400 with their messages', async () => {
    const theirs = await acceptedRequest(strangerId, wandaId)
    const foreign = await owner.put(`/api/people/ratings/${theirs}`, { stars: 5 })
    expect(foreign.status).toBe(404)
    expect(foreign.body.message).toBe('Request not found')
    // The worker of the request is not its owner either.
    expect(
      (await people.clientFor(wandaId).put(`/api/people/ratings/${theirs}`, { stars: 5 })).status,
    ).toBe(404)
    const unknown = await owner.put(`/api/people/ratings/${new ObjectId().toHexString()}`, {
      stars: 5,
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe('Request not found')
    expect(
      (await people.clientFor(null).put(`/api/people/ratings/${theirs}`, { stars: 5 })).status,
    ).toBe(401)

    const pending = new ObjectId().toHexString()
    await jobRequest('job-request.created', {
      requestId: pending,
      ownerId,
      requesterId: wandaId,
      status: 'pending',
    })
    const early = await owner.put(`/api/people/ratings/${pending}`, { stars: 5 })
    expect(early.status).toBe(409)
    expect(early.body.message).toBe(RatingMessages.notAccepted)
    await jobRequest('job-request.decided', {
      requestId: pending,
      ownerId,
      requesterId: wandaId,
      status: 'rejected',
    })
    expect((await owner.put(`/api/people/ratings/${pending}`, { stars: 5 })).status).toBe(409)

    const mine = await acceptedRequest(ownerId, brunoId)
    for (const stars of [0, 6, 4.5, '4', null, undefined]) {
      const bad = await owner.put(`/api/people/ratings/${mine}`, { stars, comment: 'ok' })
      expect({ stars, status: bad.status, message: bad.body.message }).toEqual({
        stars,
        status: 400,
        message: 'Please choose between 1 and 5 stars',
      })
    }
    const long = await owner.put(`/api/people/ratings/${mine}`, {
      stars: 4,
      comment: 'a'.repeat(501),
    })
    expect(long.status).toBe(400)
    expect(long.body.message).toBe('Your comment can be at most 500 characters')
    const notText = await owner.put(`/api/people/ratings/${mine}`, { stars: 4, comment: 42 })
    expect(notText.status).toBe(400)
    expect(notText.body.message).toBe(RatingMessages.commentText)
    // Nothing was stored by the refused calls.
    expect(await people.db.collection(RATINGS_COLLECTION).countDocuments({ requestId: mine })).toBe(
      0,
    )
    // 500 characters once trimmed is fine.
    const longest = await owner.put(`/api/people/ratings/${mine}`, {
      stars: 4,
      comment: `  ${'a'.repeat(500)}  `,
    })
    expect(longest.status).toBe(201)
    expect(longest.body.comment).toBe('a'.repeat(500))
  })

  it('rates once per request, lets the owner change it, and keeps the average on the profile and in the feed', async () => {
    const rosaId = await worker('Rosa', 'Rated')
    const one = await acceptedRequest(ownerId, rosaId, 'Paint a fence')
    const two = await acceptedRequest(ownerId, rosaId, 'Fix a door')
    expect(await ratingOf(rosaId)).toEqual({ average: null, count: 0 })

    const probe = await startEventProbe(Topics.peopleUsers)
    try {
      const given = await owner.put(`/api/people/ratings/${one}`, {
        stars: 4,
        comment: '  Careful and quick  ',
      })
      expect(given.status).toBe(201)
      expect(given.body).toEqual({
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        requestId: one,
        workerId: rosaId,
        stars: 4,
        comment: 'Careful and quick',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        editableUntil: expect.any(String),
      })
      expect(
        new Date(given.body.editableUntil).getTime() - new Date(given.body.createdAt).getTime(),
      ).toBe(RATING_EDIT_WINDOW_MS)
      const event = await probe.waitForEvent('worker.rated', rosaId, EVENT_WAIT_MS)
      expect(event).toMatchObject({ actorId: ownerId, version: 1 })
      expect(event.data).toEqual({
        ratingId: given.body._id,
        requestId: one,
        postId: `post-of-${one}`,
        postTitle: 'Paint a fence',
        workerId: rosaId,
        ownerId,
        stars: 4,
        previousStars: null,
      })
      expect(await ratingOf(rosaId)).toEqual({ average: 4, count: 1 })

      expect((await owner.put(`/api/people/ratings/${two}`, { stars: 5 })).status).toBe(201)
      expect(await ratingOf(rosaId)).toEqual({ average: 4.5, count: 2 })

      // A second PUT changes the same rating: the sum moves by the difference.
      const changed = await owner.put(`/api/people/ratings/${two}`, { stars: 1, comment: '' })
      expect(changed.status).toBe(200)
      expect(changed.body).toMatchObject({ stars: 1, comment: '' })
      expect(changed.body.createdAt).not.toBe(changed.body.updatedAt)
      expect(
        await people.db.collection(RATINGS_COLLECTION).countDocuments({ requestId: two }),
      ).toBe(1)
      expect(await ratingOf(rosaId)).toEqual({ average: 2.5, count: 2 })
      await waitFor(
        () =>
          probe.events.find(
            (e) =>
              e.type === 'worker.rated' &&
              (e.data as { requestId: string; previousStars: number | null }).requestId === two &&
              (e.data as { previousStars: number | null }).previousStars === 5,
          ),
        { timeoutMs: EVENT_WAIT_MS, what: 'worker.rated of the change' },
      )
    } finally {
      await probe.stop()
    }

    const three = await acceptedRequest(ownerId, rosaId)
    await owner.put(`/api/people/ratings/${three}`, { stars: 5 })
    // (4 + 1 + 5) / 3 = 3.33...: one decimal.
    expect(await ratingOf(rosaId)).toEqual({ average: 3.3, count: 3 })
    expect(await ratingOf(rosaId, people.clientFor(rosaId))).toEqual({ average: 3.3, count: 3 })
    const stored = await people.db.collection(PROFILES_COLLECTION).findOne({ _id: rosaId as never })
    expect(stored).toMatchObject({ ratingSum: 10, ratingCount: 3 })

    // The feed and search cards carry it too, and so does a second replica's feed.
    const card = async (baseUrl?: string) =>
      (
        (await people.clientFor(null, baseUrl).get('/api/people?search=Rosa')).body
          .people as Array<{
          _id: string
          rating: unknown
        }>
      ).find((person) => person._id === rosaId)?.rating
    expect(await card()).toEqual({ average: 3.3, count: 3 })
    const feed = await people.clientFor(null).get('/api/people?limit=50')
    expect(
      (feed.body.people as Array<{ _id: string; rating: unknown }>).find((p) => p._id === rosaId)
        ?.rating,
    ).toEqual({ average: 3.3, count: 3 })
    expect(feed.text).not.toContain('ratingTokens')
    const replica = await people.startReplica()
    await owner.put(`/api/people/ratings/${three}`, { stars: 2 })
    await waitFor(
      async () => JSON.stringify(await card(replica.baseUrl)) === '{"average":2.3,"count":3}',
      { timeoutMs: EVENT_WAIT_MS, what: "the replica's feed showing the changed average" },
    )

    // The list shows the ratings given.
    const list = await owner.get('/api/people/ratings/rateable')
    const entry = (list.body as Array<{ requestId: string; rating: unknown }>).find(
      (item) => item.requestId === one,
    )
    expect(entry?.rating).toEqual({
      stars: 4,
      comment: 'Careful and quick',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      editableUntil: expect.any(String),
    })
  })

  it('counts two parallel first ratings of one request once', async () => {
    const tinaId = await worker('Tina', 'Twice')
    const requestId = await acceptedRequest(ownerId, tinaId)
    const answers = await Promise.all([
      owner.put(`/api/people/ratings/${requestId}`, { stars: 5 }),
      owner.put(`/api/people/ratings/${requestId}`, { stars: 3 }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201])
    expect(await people.db.collection(RATINGS_COLLECTION).countDocuments({ requestId })).toBe(1)
    const rating = await ratingOf(tinaId)
    expect(rating.count).toBe(1)
    const stored = await people.db.collection(RATINGS_COLLECTION).findOne({ requestId })
    expect(rating.average).toBe(stored?.stars)
  })

  it('lets a rating change for 14 days after it was first given, then refuses', async () => {
    const requestId = await acceptedRequest(ownerId, wandaId, 'Window check')
    expect((await owner.put(`/api/people/ratings/${requestId}`, { stars: 3 })).status).toBe(201)
    const backdate = (days: number) =>
      people.db
        .collection(RATINGS_COLLECTION)
        .updateOne({ requestId }, { $set: { createdAt: new Date(Date.now() - days * DAY_MS) } })
    await backdate(13.9)
    const inside = await owner.put(`/api/people/ratings/${requestId}`, { stars: 4 })
    expect(inside.status).toBe(200)
    const until = new Date(inside.body.editableUntil).getTime()
    expect(until - Date.now()).toBeGreaterThan(0)
    expect(until - Date.now()).toBeLessThan(DAY_MS)

    await backdate(14.01)
    const late = await owner.put(`/api/people/ratings/${requestId}`, { stars: 5 })
    expect(late.status).toBe(409)
    expect(late.body.message).toBe('Ratings can only be changed within 14 days')
    const stored = await people.db.collection(RATINGS_COLLECTION).findOne({ requestId })
    expect(stored?.stars).toBe(4)
  })

  it('refuses a rating once the request is back to pending (409) or deleted (404)', async () => {
    const requestId = await acceptedRequest(ownerId, brunoId, 'Undone')
    const request = { requestId, ownerId, requesterId: brunoId, postTitle: 'Undone' }
    expect((await owner.put(`/api/people/ratings/${requestId}`, { stars: 4 })).status).toBe(201)
    await jobRequest('job-request.decided', { ...request, status: 'pending' })
    const undone = await owner.put(`/api/people/ratings/${requestId}`, { stars: 2 })
    expect(undone.status).toBe(409)
    expect(undone.body.message).toBe(RatingMessages.notAccepted)
    const listed = async () =>
      ((await owner.get('/api/people/ratings/rateable')).body as Array<{ requestId: string }>).map(
        (item) => item.requestId,
      )
    expect(await listed()).not.toContain(requestId)

    await jobRequest('job-request.decided', { ...request, status: 'accepted' })
    expect(await listed()).toContain(requestId)
    await jobRequest('job-request.deleted', { ...request, status: 'accepted' })
    const gone = await owner.put(`/api/people/ratings/${requestId}`, { stars: 2 })
    expect(gone.status).toBe(404)
    expect(gone.body.message).toBe('Request not found')
    // A replayed older event does not bring a deleted request back.
    await publishEvent(
      Topics.jobsRequests,
      newEvent('job-request.created', {
        aggregateId: requestId,
        actorId: brunoId,
        data: { ...request, postId: 'p', requesterName: 'Bruno Builder', status: 'pending' },
      }),
    )
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(
      await people.db
        .collection(KNOWN_JOB_REQUESTS_COLLECTION)
        .findOne({ _id: requestId as never }),
    ).toMatchObject({ deleted: true })
  })

  it('finishes a change a crash left half done, counting it exactly once', async () => {
    const kimId = await worker('Kim', 'Crash')
    const requestId = await acceptedRequest(ownerId, kimId)
    expect((await owner.put(`/api/people/ratings/${requestId}`, { stars: 2 })).status).toBe(201)
    const ratings = people.db.collection(RATINGS_COLLECTION)
    const profiles = people.db.collection(PROFILES_COLLECTION)
    const old = new Date(Date.now() - 5 * 60_000)

    // Crash after step 1 (the rating changed 2 -> 5, the profile not yet).
    await ratings.updateOne(
      { requestId },
      {
        $set: {
          stars: 5,
          pending: { token: 'crash-a', sum: 3, count: 0, stars: 5, previousStars: 2, since: old },
        },
      },
    )
    // Crash after step 2 of another change (5 -> 4): the profile counted it already.
    expect(await people.app.ratings.countPending()).toBeGreaterThanOrEqual(1)
    expect(await ratingOf(kimId)).toEqual({ average: 5, count: 1 })
    await ratings.updateOne(
      { requestId },
      {
        $set: {
          stars: 4,
          pending: { token: 'crash-b', sum: -1, count: 0, stars: 4, previousStars: 5, since: old },
        },
      },
    )
    await profiles.updateOne({ _id: kimId as never }, {
      $inc: { ratingSum: -1 },
      $push: { ratingTokens: 'crash-b' },
    } as never)
    await people.app.ratings.countPending()
    await people.app.ratings.countPending()
    expect(await ratingOf(kimId)).toEqual({ average: 4, count: 1 })
    expect(await ratings.findOne({ requestId })).toMatchObject({ stars: 4, countedStars: 4 })
    expect(
      await ratings.countDocuments({ requestId, pending: { $exists: true } }, TEST_QUERY),
    ).toBe(0)

    // A change the sweep has not reached is finished by the next PUT, before its own.
    await ratings.updateOne(
      { requestId },
      {
        $set: {
          stars: 1,
          pending: {
            token: 'crash-c',
            sum: -3,
            count: 0,
            stars: 1,
            previousStars: 4,
            since: new Date(),
          },
        },
      },
    )
    expect((await owner.put(`/api/people/ratings/${requestId}`, { stars: 3 })).status).toBe(200)
    expect(await ratingOf(kimId)).toEqual({ average: 3, count: 1 })
  })

  it('removes the ratings of a deleted user, as owner (taken back from the worker) and as worker', async () => {
    const leaverId = await people.registerUser('Lea', 'Leaver')
    const leaver = people.clientFor(leaverId)
    const ivyId = await worker('Ivy', 'Kept')
    const byLeaver = await acceptedRequest(leaverId, ivyId)
    const byOwner = await acceptedRequest(ownerId, ivyId)
    expect((await leaver.put(`/api/people/ratings/${byLeaver}`, { stars: 1 })).status).toBe(201)
    expect((await owner.put(`/api/people/ratings/${byOwner}`, { stars: 5 })).status).toBe(201)
    expect(await ratingOf(ivyId)).toEqual({ average: 3, count: 2 })

    const goneWorkerId = await worker('Gus', 'Gone')
    const ofGoneWorker = await acceptedRequest(ownerId, goneWorkerId)
    expect((await owner.put(`/api/people/ratings/${ofGoneWorker}`, { stars: 4 })).status).toBe(201)

    for (const userId of [leaverId, goneWorkerId]) {
      await publishEvent(
        Topics.peopleUsers,
        newEvent('user.deleted', { aggregateId: userId, actorId: null, data: { userId } }),
      )
    }
    await waitFor(
      async () =>
        (await people.db
          .collection(PROFILES_COLLECTION)
          .countDocuments({ _id: { $in: [leaverId, goneWorkerId] } as never })) === 0,
      { timeoutMs: EVENT_WAIT_MS, what: 'the deleted users purged' },
    )
    expect(await ratingOf(ivyId)).toEqual({ average: 5, count: 1 })
    const ratings = people.db.collection(RATINGS_COLLECTION)
    expect(await ratings.countDocuments({ ownerId: leaverId })).toBe(0)
    expect(await ratings.countDocuments({ workerId: goneWorkerId })).toBe(0)
    const known = people.db.collection(KNOWN_JOB_REQUESTS_COLLECTION)
    expect(await known.countDocuments({ ownerId: leaverId })).toBe(0)
    expect(await known.countDocuments({ requesterId: goneWorkerId })).toBe(0)
    // The owner's list no longer names the gone worker's request.
    const list = await owner.get('/api/people/ratings/rateable')
    expect((list.body as Array<{ requestId: string }>).map((item) => item.requestId)).not.toContain(
      ofGoneWorker,
    )
  })
})
