import { Topics } from '@marketplace/contracts/events'
import { OFFER_MESSAGES } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import { announceWorker } from '../test/announce-worker'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'
import { JOB_REQUESTS_COLLECTION } from './request-document'

// A new consumer group first replays the shared broker's history, so events may take a while.
const EVENT_WAIT_MS = 60_000

/** An event's data, read field by field by the assertions. */
const dataOf = (event: { data: unknown }) => event.data as Record<string, unknown>

describe('jobs service: offers on requests (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp
  type Client = ReturnType<JobsTestApp['clientFor']>
  let owner: Client
  let workerId: string
  let worker: Client
  let otherWorkerId: string
  let otherWorker: Client
  /** A third user, a worker too: party of nothing here. */
  let stranger: Client

  const livePost = async (title: string) =>
    (await owner.post('/api/jobs', { title, where: 'Denver CO', salary: '$80' })).body as {
      _id: string
    }

  const offer = (amount: unknown, extra: Record<string, unknown> = {}) => ({
    amount,
    unit: 'fixed',
    ...extra,
  })

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_offers')
    owner = jobs.clientFor(jobs.newUserId())
    ;[workerId, otherWorkerId] = await Promise.all([
      announceWorker(jobs, 'Wanda'),
      announceWorker(jobs, 'Walter'),
    ])
    worker = jobs.clientFor(workerId)
    otherWorker = jobs.clientFor(otherWorkerId)
    stranger = jobs.clientFor(await announceWorker(jobs, 'Sam'))
  }, 150_000)
  afterAll(() => jobs.stop())

  it('keeps a request without an offer exactly as before: the same answer, no terms anywhere', async () => {
    const post = await livePost('No offer here')
    const sent = await worker.post('/api/jobs/requests', { postID: post._id })
    expect(sent.status).toBe(201)
    expect(Object.keys(sent.body).sort()).toEqual(['_id', 'createdAt', 'postId', 'status'])
    const stored = await jobs.db
      .collection(JOB_REQUESTS_COLLECTION)
      .findOne({ _id: sent.body._id as never })
    expect(stored).not.toHaveProperty('offer')
    const received = (await owner.get(`/api/jobs/user/${owner.userId}/received-requests`)).body
    const entry = received.find((item: { _id: string }) => item._id === sent.body._id)
    expect(entry).not.toHaveProperty('offer')
    expect(entry).not.toHaveProperty('agreed')
  })

  it('stores an offer with the request, answers it, and carries it in job-request.created', async () => {
    const probe = await startEventProbe(Topics.jobsRequests)
    try {
      const post = await livePost('Paint a fence')
      const sent = await worker.post('/api/jobs/requests', {
        postID: post._id,
        offer: {
          amount: '80.50',
          unit: 'fixed',
          note: 'I bring my brushes',
          proposedTime: 'Sat 9am',
        },
      })
      expect(sent.status).toBe(201)
      expect(sent.body.offer).toEqual({
        amount: 80.5,
        unit: 'fixed',
        note: 'I bring my brushes',
        proposedTime: 'Sat 9am',
      })
      const event = dataOf(await probe.waitForEvent('job-request.created', sent.body._id))
      expect(event.offer).toEqual(sent.body.offer)
      expect(event.ownerId).toBe(owner.userId)
    } finally {
      await probe.stop()
    }
  })

  it('refuses a bad offer with a message that says what to fix, and stores nothing', async () => {
    const post = await livePost('Validation of offers')
    const cases: Array<[unknown, string]> = [
      [offer(0), OFFER_MESSAGES.amountPositive],
      [offer(-5), OFFER_MESSAGES.amountPositive],
      [offer('abc'), OFFER_MESSAGES.amountRequired],
      [{ unit: 'fixed' }, OFFER_MESSAGES.amountRequired],
      [offer(80.555), OFFER_MESSAGES.amountDecimals],
      [offer('12.345'), OFFER_MESSAGES.amountDecimals],
      [offer(100_000.01), OFFER_MESSAGES.amountTooLarge],
      [offer(80, { unit: 'week' }), OFFER_MESSAGES.unitInvalid],
      [{ amount: 80 }, OFFER_MESSAGES.unitInvalid],
      [offer(80, { note: 'x'.repeat(501) }), OFFER_MESSAGES.noteTooLong],
      [offer(80, { proposedTime: 't'.repeat(101) }), OFFER_MESSAGES.timeTooLong],
    ]
    for (const [body, message] of cases) {
      const answer = await worker.post('/api/jobs/requests', { postID: post._id, offer: body })
      expect({ body, status: answer.status, message: answer.body.message }).toEqual({
        body,
        status: 400,
        message,
      })
    }
    // Nothing was stored: the same worker's good offer is their first request on the post.
    const good = await worker.post('/api/jobs/requests', {
      postID: post._id,
      offer: offer(100_000, { note: 'n'.repeat(500), unit: 'hour' }),
    })
    expect(good.status).toBe(201)
    expect(good.body.offer).toMatchObject({ amount: 100_000, unit: 'hour' })
  })

  it('shows the owner the offers side by side, with each worker rating and completed requests', async () => {
    const post = await livePost('Move a sofa')
    const earlier = await livePost('Earlier job of Walter')
    // Walter has one accepted request and a rating of 4 then re-rated 5.
    const done = await otherWorker.post('/api/jobs/requests', { postID: earlier._id })
    await owner.patch(`/api/jobs/requests/${done.body._id}`, { status: 'accepted' })
    for (const [stars, previousStars] of [
      [4, null],
      [5, 4],
    ] as const) {
      await publishEvent(
        Topics.peopleUsers,
        newEvent('worker.rated', {
          aggregateId: otherWorkerId,
          actorId: owner.userId!,
          data: {
            ratingId: `${done.body._id}:r`,
            requestId: done.body._id,
            postId: earlier._id,
            postTitle: 'Earlier job of Walter',
            workerId: otherWorkerId,
            ownerId: owner.userId!,
            stars,
            previousStars,
          },
        }),
      )
    }
    await worker.post('/api/jobs/requests', {
      postID: post._id,
      offer: offer(120, { proposedTime: 'Monday' }),
    })
    await otherWorker.post('/api/jobs/requests', { postID: post._id, offer: offer(95.5) })

    type Entry = {
      post: { _id: string }
      offer: { amount: number; proposedTime: string }
      requester: { _id: string; rating: unknown; completedRequests: number }
    }
    const onSofa = async (): Promise<Entry[]> =>
      (await owner.get(`/api/jobs/user/${owner.userId}/received-requests`)).body.filter(
        (entry: Entry) => entry.post._id === post._id,
      )
    await waitFor(
      async () =>
        (await onSofa()).some(
          (entry) =>
            entry.requester._id === otherWorkerId &&
            JSON.stringify(entry.requester.rating) === JSON.stringify({ average: 5, count: 1 }),
        ),
      { timeoutMs: EVENT_WAIT_MS, what: "Walter's rating to reach the jobs service" },
    )
    const entries = await onSofa()
    const byWorker = new Map(entries.map((entry) => [entry.requester._id, entry]))
    expect(byWorker.get(otherWorkerId)).toMatchObject({
      offer: { amount: 95.5, unit: 'fixed', note: '', proposedTime: '' },
      requester: { rating: { average: 5, count: 1 }, completedRequests: 1 },
    })
    expect(byWorker.get(workerId)).toMatchObject({
      offer: { amount: 120, proposedTime: 'Monday' },
      requester: { rating: { average: null, count: 0 }, completedRequests: 0 },
    })
  }, 120_000)

  it('takes one counter-offer per pending request from its owner alone; the worker accepts it and it becomes the offer', async () => {
    const probe = await startEventProbe(Topics.jobsRequests)
    try {
      const post = await livePost('Clean a garage')
      const sent = await worker.post('/api/jobs/requests', {
        postID: post._id,
        offer: offer(100, { proposedTime: 'Sunday' }),
      })
      const id = sent.body._id as string
      const path = `/api/jobs/requests/${id}/counter-offer`

      // Neither the worker nor a stranger can counter: 404, as for a request that does not exist.
      expect((await worker.post(path, { amount: 70 })).status).toBe(404)
      const foreign = await stranger.post(path, { amount: 70 })
      expect(foreign.status).toBe(404)
      expect(foreign.body.message).toBe(Messages.requests.notFound)
      expect(
        (await owner.post(`/api/jobs/requests/nope/counter-offer`, { amount: 70 })).status,
      ).toBe(404)
      expect((await owner.post(path, { amount: 70.001 })).body.message).toBe(
        OFFER_MESSAGES.amountDecimals,
      )

      const countered = await owner.post(path, { amount: 85, note: 'My budget' })
      expect(countered.status).toBe(201)
      expect(countered.body).toMatchObject({
        _id: id,
        status: 'pending',
        offer: { amount: 100, unit: 'fixed', proposedTime: 'Sunday' },
        counter: { amount: 85, unit: 'fixed', note: 'My budget', state: 'pending' },
        agreed: null,
      })
      const twice = await owner.post(path, { amount: 90 })
      expect(twice.status).toBe(409)
      expect(twice.body.message).toBe(OFFER_MESSAGES.counterTwice)
      const event = dataOf(await probe.waitForEvent('job-request.countered', id))
      expect(event.counter).toEqual({
        amount: 85,
        unit: 'fixed',
        note: 'My budget',
        proposedTime: '',
      })

      // Only the worker answers it.
      expect((await owner.patch(path, { answer: 'accepted' })).status).toBe(404)
      expect((await stranger.patch(path, { answer: 'accepted' })).status).toBe(404)
      expect((await worker.patch(path, { answer: 'maybe' })).body.message).toBe(
        OFFER_MESSAGES.counterAnswerInvalid,
      )
      const accepted = await worker.patch(path, { answer: 'accepted' })
      expect(accepted.status).toBe(200)
      expect(accepted.body).toMatchObject({
        offer: { amount: 85, unit: 'fixed', note: 'My budget', proposedTime: 'Sunday' },
        counter: { amount: 85, state: 'accepted' },
      })
      const again = await worker.patch(path, { answer: 'declined' })
      expect(again.status).toBe(409)
      expect(again.body.message).toBe(OFFER_MESSAGES.noCounterWaiting)
      const answered = dataOf(await probe.waitForEvent('job-request.counter-answered', id))
      expect(answered).toMatchObject({ answer: 'accepted', counter: { amount: 85 } })

      // Accepting the request fixes the agreed amount: in the answer, both lists and the event.
      const decided = await owner.patch(`/api/jobs/requests/${id}`, { status: 'accepted' })
      expect(decided.body.agreed).toEqual({ amount: 85, unit: 'fixed' })
      const decidedEvent = dataOf(await probe.waitForEvent('job-request.decided', id))
      expect(decidedEvent.agreed).toEqual({ amount: 85, unit: 'fixed' })
      const sentList = (await worker.get(`/api/jobs/user/${workerId}/sent-requests`)).body
      expect(sentList.find((entry: { _id: string }) => entry._id === id).agreed).toEqual({
        amount: 85,
        unit: 'fixed',
      })
      const receivedList = (await owner.get(`/api/jobs/user/${owner.userId}/received-requests`))
        .body
      expect(receivedList.find((entry: { _id: string }) => entry._id === id).agreed).toEqual({
        amount: 85,
        unit: 'fixed',
      })
      // No counter on a request that is no longer pending.
      const other = await otherWorker.post('/api/jobs/requests', {
        postID: post._id,
        offer: offer(60),
      })
      await owner.patch(`/api/jobs/requests/${other.body._id}`, { status: 'rejected' })
      const late = await owner.post(`/api/jobs/requests/${other.body._id}/counter-offer`, {
        amount: 50,
      })
      expect(late.status).toBe(409)
      expect(late.body.message).toBe(OFFER_MESSAGES.counterNotPending)
    } finally {
      await probe.stop()
    }
  }, 120_000)

  it('keeps the worker offer when they decline the counter, and counts agreed amounts in Stats', async () => {
    const freshOwner = jobs.clientFor(jobs.newUserId())
    const post = (await freshOwner.post('/api/jobs', { title: 'Walk a dog', where: 'Denver CO' }))
      .body as { _id: string }
    const hourly = (
      await freshOwner.post('/api/jobs', { title: 'Tutor maths', where: 'Denver CO' })
    ).body as { _id: string }
    const sent = await worker.post('/api/jobs/requests', { postID: post._id, offer: offer(40) })
    const path = `/api/jobs/requests/${sent.body._id}/counter-offer`
    // A counter without a unit takes the offer's.
    expect((await freshOwner.post(path, { amount: 30 })).body.counter.unit).toBe('fixed')
    const declined = await worker.patch(path, { answer: 'declined' })
    expect(declined.status).toBe(200)
    expect(declined.body).toMatchObject({
      offer: { amount: 40 },
      counter: { amount: 30, state: 'declined' },
    })
    await freshOwner.patch(`/api/jobs/requests/${sent.body._id}`, { status: 'accepted' })
    const perHour = await worker.post('/api/jobs/requests', {
      postID: hourly._id,
      offer: { amount: 25, unit: 'hour' },
    })
    await freshOwner.patch(`/api/jobs/requests/${perHour.body._id}`, { status: 'accepted' })

    const stats = (await freshOwner.get(`/api/jobs/stats/${freshOwner.userId}`)).body
    expect(stats.agreed.received).toEqual({ requests: 2, fixedTotal: 40, perHourRequests: 1 })
    expect(stats.agreed.sent).toEqual({ requests: 0, fixedTotal: 0, perHourRequests: 0 })

    // Undoing the acceptance takes the agreed amount back.
    const undone = await freshOwner.patch(`/api/jobs/requests/${sent.body._id}`, {
      status: 'pending',
    })
    expect(undone.body).not.toHaveProperty('agreed')
  })

  it('never shows an offer to anyone but the two sides (BOLA)', async () => {
    const post = await livePost('Secret price job')
    const sent = await worker.post('/api/jobs/requests', {
      postID: post._id,
      offer: offer(4321.99, { note: 'only-for-the-owner' }),
    })
    const id = sent.body._id as string
    await owner.post(`/api/jobs/requests/${id}/counter-offer`, { amount: 3999.25 })
    const leaks = (text: string) =>
      ['4321.99', '3999.25', 'only-for-the-owner'].filter((secret) => text.includes(secret))

    // A third user: 404 on every route of the request, 403 on the two sides' lists.
    const path = `/api/jobs/requests/${id}/counter-offer`
    for (const answer of [
      await stranger.post(path, { amount: 1 }),
      await stranger.patch(path, { answer: 'accepted' }),
      await stranger.patch(`/api/jobs/requests/${id}`, { status: 'accepted' }),
      await stranger.delete(`/api/jobs/requests/${id}`),
    ]) {
      expect(answer.status).toBe(404)
      expect(leaks(answer.text)).toEqual([])
    }
    for (const list of [
      await stranger.get(`/api/jobs/user/${owner.userId}/received-requests`),
      await stranger.get(`/api/jobs/user/${workerId}/sent-requests`),
      await stranger.get(`/api/jobs/stats/${owner.userId}`),
    ]) {
      expect(list.status).toBe(403)
      expect(leaks(list.text)).toEqual([])
    }
    // Their own lists, the post's details, the feed and search: nothing of the offer.
    for (const answer of [
      await stranger.get(`/api/jobs/user/${stranger.userId}/sent-requests`),
      await stranger.get(`/api/jobs/user/${stranger.userId}/received-requests`),
      await stranger.get(`/api/jobs/${post._id}`),
      await jobs.clientFor(null).get(`/api/jobs/${post._id}`),
      await stranger.get('/api/jobs?limit=50'),
      await stranger.get(`/api/jobs?search=${encodeURIComponent('Secret price')}`),
    ]) {
      expect(leaks(answer.text)).toEqual([])
    }
    // Another worker who requested the same post sees only their own request.
    await otherWorker.post('/api/jobs/requests', { postID: post._id })
    const theirs = await otherWorker.get(`/api/jobs/user/${otherWorkerId}/sent-requests`)
    expect(leaks(theirs.text)).toEqual([])
    // The owner's own post details carry no offer either: offers live on requests only.
    expect(leaks((await owner.get(`/api/jobs/${post._id}`)).text)).toEqual([])
    // The two sides do see it.
    expect(
      leaks((await owner.get(`/api/jobs/user/${owner.userId}/received-requests`)).text),
    ).toEqual(['4321.99', '3999.25', 'only-for-the-owner'])
    expect(leaks((await worker.get(`/api/jobs/user/${workerId}/sent-requests`)).text)).toEqual([
      '4321.99',
      '3999.25',
      'only-for-the-owner',
    ])
  })
})
