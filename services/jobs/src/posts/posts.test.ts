import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
const EVENT_WAIT_MS = 60_000

const SECRET_PLACE = 'Harbor Lane 17 Boston MA'
// The method is public; the value is the secret.
const CONTACT_METHOD = 'WhatsApp'
const SECRET_NUMBER = '6175550199'

function futureDate(days: number): string {
  const date = new Date()
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

describe('jobs service: posts, feed, search and privacy (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp
  let ownerId: string
  let owner: ReturnType<JobsTestApp['clientFor']>
  let stranger: ReturnType<JobsTestApp['clientFor']>
  let guest: ReturnType<JobsTestApp['clientFor']>

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_posts')
    ownerId = jobs.newUserId()
    owner = jobs.clientFor(ownerId)
    stranger = jobs.clientFor(jobs.newUserId())
    guest = jobs.clientFor(null)
  })
  afterAll(() => jobs.stop())

  const createPrivatePost = (title = 'Help moving a piano') =>
    owner.post('/api/jobs', {
      title,
      where: SECRET_PLACE,
      when: 'Saturday morning',
      howmuch: '$80',
      payment: ['Cash', 'Zelle'],
      contact: CONTACT_METHOD,
      contactValue: '(617) 555-0199',
      infos: 'Third floor, no elevator',
      displayLocation: false,
      displayContact: false,
    })

  describe('creating', () => {
    it('maps the form names onto the post, derives the category and answers 201', async () => {
      const created = await createPrivatePost()
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({
        userID: ownerId,
        title: 'Help moving a piano',
        location: SECRET_PLACE,
        jobStartEnd: 'Saturday morning',
        salary: '$80',
        paymentType: ['Cash', 'Zelle'],
        contact: CONTACT_METHOD,
        contactValue: SECRET_NUMBER,
        category: 'Moving',
        isOnline: true,
        authorizedUsers: [],
      })
      expect(created.body._id).toMatch(/^[0-9a-f]{24}$/)
    })

    it.each([
      [{ where: 'Boston MA' }, Messages.post.titleAndLocationRequired],
      [{ title: 'Paint a fence', where: '   ' }, Messages.post.titleAndLocationRequired],
      [{ title: 'x'.repeat(101), where: 'Boston MA' }, Messages.tooLong('Title', 100)],
      [
        { title: 'Paint', where: 'Boston MA', infos: 'y'.repeat(2001) },
        Messages.tooLong('Infos', 2000),
      ],
      [
        { title: 'Paint', where: 'Boston MA', payment: ['Gold bars'] },
        Messages.post.invalidPayment,
      ],
      [
        { title: 'Paint', where: 'Boston MA', contact: 'Carrier pigeon' },
        Messages.post.invalidContact,
      ],
      [
        { title: 'Paint', where: 'Boston MA', expirationDate: '2020-01-01' },
        Messages.post.expirationDateInPast,
      ],
      [
        { title: 'Paint', where: 'Boston MA', expirationDate: 'soon' },
        Messages.post.invalidExpirationDate,
      ],
      [
        { title: 'Paint', where: 'Boston MA', displayLocation: 'maybe' },
        'displayLocation must be true or false',
      ],
      [
        { title: 'Paint', where: 'Boston MA', category: 'Astrology' },
        Messages.post.invalidCategory,
      ],
    ])('refuses %j with 400 and the product message', async (body, message) => {
      const answer = await owner.post('/api/jobs', body)
      expect(answer.status).toBe(400)
      expect(answer.body.message).toBe(message)
    })

    it('needs a token (401) and refuses creating for another user (403)', async () => {
      expect((await guest.post('/api/jobs', { title: 'Paint', where: 'Boston MA' })).status).toBe(
        401,
      )
      const foreign = await owner.post('/api/jobs', {
        userID: jobs.newUserId(),
        title: 'Paint',
        where: 'Boston MA',
      })
      expect(foreign.status).toBe(403)
    })

    it('accepts only a picture key under the caller own prefix', async () => {
      const other = jobs.newUserId()
      const stolen = await owner.post('/api/jobs', {
        title: 'Paint',
        where: 'Boston MA',
        jobPicture: `jobImages/${other}/0b7f6c1e-1111-4222-8333-944455556666.png`,
      })
      expect(stolen.status).toBe(400)
      const traversal = await owner.post('/api/jobs', {
        title: 'Paint',
        where: 'Boston MA',
        jobPicture: `jobImages/${ownerId}/../x.png`,
      })
      expect(traversal.status).toBe(400)
      const own = await owner.post('/api/jobs', {
        title: 'Paint a fence',
        where: 'Boston MA',
        jobPicture: `jobImages/${ownerId}/0b7f6c1e-1111-4222-8333-944455556666.png`,
      })
      expect(own.status).toBe(201)
      expect(own.body.jobPicture).toBe(
        `jobImages/${ownerId}/0b7f6c1e-1111-4222-8333-944455556666.png`,
      )
    })

    it('accepts an explicit category and a future expiration date', async () => {
      const answer = await owner.post('/api/jobs', {
        title: 'Queue for concert tickets',
        location: 'Austin TX',
        category: 'Events',
        expirationDate: futureDate(3),
      })
      expect(answer.status).toBe(201)
      expect(answer.body).toMatchObject({ category: 'Events', expirationDate: futureDate(3) })
    })
  })

  describe('privacy on the server', () => {
    it('never sends a hidden location or contact value to a stranger or a guest, in any response', async () => {
      const { body: post } = await createPrivatePost('Carry a wardrobe upstairs')
      for (const client of [stranger, guest]) {
        const answers = [
          await client.get(`/api/jobs/${post._id}`),
          await client.get('/api/jobs?page=1'),
          await client.get('/api/jobs?search=wardrobe&limit=10'),
        ]
        for (const answer of answers) {
          expect(answer.status).toBe(200)
          expect(answer.text).toContain('Carry a wardrobe upstairs')
          expect(answer.text).not.toContain(SECRET_PLACE)
          expect(answer.text).not.toContain(SECRET_NUMBER)
        }
      }
      const details = await stranger.get(`/api/jobs/${post._id}`)
      expect(details.body).toMatchObject({
        location: null,
        contact: null,
        contactValue: null,
        authorizedUsers: [],
      })
      const mine = await owner.get(`/api/jobs/${post._id}`)
      expect(mine.body).toMatchObject({
        location: SECRET_PLACE,
        contact: CONTACT_METHOD,
        contactValue: SECRET_NUMBER,
      })
    })

    it('shows the hidden fields to a worker the owner asked who accepted, and takes them back', async () => {
      const { body: post } = await createPrivatePost('Move a fridge')
      const workerId = jobs.newUserId()
      const worker = jobs.clientFor(workerId)
      const decided = (status: 'accepted' | 'rejected') =>
        newEvent('people-request.decided', {
          aggregateId: `req-${post._id}`,
          actorId: workerId,
          data: {
            requestId: `req-${post._id}`,
            postId: post._id,
            postTitle: 'Move a fridge',
            ownerId,
            ownerName: 'Olga Owner',
            workerId,
            workerName: 'Wanda Worker',
            status,
          },
        })
      await publishEvent(Topics.peopleRequests, decided('accepted'))
      await waitFor(
        async () => (await worker.get(`/api/jobs/${post._id}`)).body.location === SECRET_PLACE,
        { timeoutMs: EVENT_WAIT_MS, what: 'access granted by people-request.decided' },
      )
      expect((await worker.get(`/api/jobs/${post._id}`)).body.authorizedUsers).toEqual([workerId])
      expect((await owner.get(`/api/jobs/${post._id}`)).body.authorizedUsers).toEqual([workerId])
      // Another owner cannot grant access to this post.
      const forged = newEvent('people-request.decided', {
        aggregateId: 'forged',
        actorId: workerId,
        data: {
          requestId: 'forged',
          postId: post._id,
          postTitle: 'Move a fridge',
          ownerId: jobs.newUserId(),
          ownerName: 'Mallory Forger',
          workerId: 'intruder',
          workerName: 'Ivan Intruder',
          status: 'accepted',
        },
      })
      await publishEvent(Topics.peopleRequests, forged)
      await publishEvent(Topics.peopleRequests, decided('rejected'))
      await waitFor(
        async () => (await worker.get(`/api/jobs/${post._id}`)).body.location === null,
        { timeoutMs: EVENT_WAIT_MS, what: 'access taken back' },
      )
      expect((await owner.get(`/api/jobs/${post._id}`)).body.authorizedUsers).toEqual([])
    })

    it('publishes post events without the hidden values', async () => {
      const probe = await startEventProbe(Topics.jobsPosts)
      try {
        const { body: post } = await createPrivatePost('Haul garden waste')
        const event = await probe.waitForEvent('post.created', post._id)
        expect(event.data).toMatchObject({
          postId: post._id,
          ownerId,
          location: null,
          contact: null,
        })
        expect(JSON.stringify(event)).not.toContain(SECRET_PLACE)
        expect(JSON.stringify(event)).not.toContain(CONTACT_METHOD)
        expect(JSON.stringify(event)).not.toContain('authorizedUsers')
        expect(JSON.stringify(event)).not.toContain(SECRET_NUMBER)
        expect(JSON.stringify(event)).not.toContain('contactValue')
      } finally {
        await probe.stop()
      }
    })
  })

  describe('changing and deleting', () => {
    it('toggles isOnline alone (the string "false" too), which takes the post out of the feed', async () => {
      const { body: post } = await owner.post('/api/jobs', {
        title: 'Unique toggle zebra',
        where: 'Boston MA',
      })
      expect((await guest.get('/api/jobs?search=zebra')).body.jobs).toHaveLength(1)
      const off = await owner.put(`/api/jobs/${post._id}`, { isOnline: 'false' })
      expect(off.status).toBe(200)
      expect(off.body.isOnline).toBe(false)
      expect((await guest.get('/api/jobs?search=zebra')).body.jobs).toHaveLength(0)
      await owner.put(`/api/jobs/${post._id}`, { isOnline: true })
      expect((await guest.get('/api/jobs?search=zebra')).body.jobs).toHaveLength(1)
    })

    it('changes fields, refuses a new title, keeps the rules, re-derives the category', async () => {
      const { body: post } = await owner.post('/api/jobs', {
        title: 'Saturday help',
        where: 'Boston MA',
        infos: 'Boxes to carry',
      })
      expect(post.category).toBe('Moving')
      const changed = await owner.put(`/api/jobs/${post._id}`, {
        location: 'Denver CO',
        infos: 'Mow the lawn',
        paymentType: 'Cash - Venmo',
      })
      expect(changed.status).toBe(200)
      expect(changed.body).toMatchObject({
        location: 'Denver CO',
        category: 'Gardening',
        paymentType: ['Cash', 'Venmo'],
      })
      const retitled = await owner.put(`/api/jobs/${post._id}`, {
        title: 'Another title',
        location: 'Denver CO',
      })
      expect(retitled.status).toBe(400)
      expect(retitled.body.message).toBe(Messages.post.titleUnchangeable)
      expect(
        (
          await owner.put(`/api/jobs/${post._id}`, {
            title: 'Saturday help',
            location: 'Austin TX',
          })
        ).status,
      ).toBe(200)
      expect((await owner.put(`/api/jobs/${post._id}`, { location: '' })).body.message).toBe(
        Messages.post.titleAndLocationRequired,
      )
      expect((await owner.put(`/api/jobs/${post._id}`, {})).status).toBe(400)
    })

    it('answers 404 to anyone but the owner (BOLA), and for unknown or malformed ids', async () => {
      const { body: post } = await owner.post('/api/jobs', {
        title: 'Owner only',
        where: 'Boston MA',
      })
      expect((await stranger.put(`/api/jobs/${post._id}`, { isOnline: false })).status).toBe(404)
      expect((await stranger.delete(`/api/jobs/${post._id}`)).status).toBe(404)
      expect((await guest.put(`/api/jobs/${post._id}`, { isOnline: false })).status).toBe(401)
      expect((await owner.get(`/api/jobs/${'f'.repeat(24)}`)).status).toBe(404)
      expect((await owner.get('/api/jobs/not-an-id')).status).toBe(404)
      expect((await owner.get(`/api/jobs/${post._id}`)).body.isOnline).toBe(true)
    })

    it('deletes: gone from details, my-jobs, the feed and search, with a post.deleted event', async () => {
      const probe = await startEventProbe(Topics.jobsPosts)
      try {
        const { body: post } = await owner.post('/api/jobs', {
          title: 'Delete me quokka',
          where: 'Boston MA',
        })
        expect((await owner.delete(`/api/jobs/${post._id}`)).status).toBe(204)
        expect((await owner.get(`/api/jobs/${post._id}`)).status).toBe(404)
        expect(
          (await owner.get('/api/jobs/my-jobs')).body.map((p: { _id: string }) => p._id),
        ).not.toContain(post._id)
        expect((await guest.get('/api/jobs?search=quokka')).body.jobs).toEqual([])
        const event = await probe.waitForEvent('post.deleted', post._id)
        expect(event.data).toEqual({ postId: post._id, ownerId, title: 'Delete me quokka' })
      } finally {
        await probe.stop()
      }
    })

    it('lists my-jobs newest first, with the owner view, only for the caller', async () => {
      const me = jobs.clientFor(jobs.newUserId())
      await me.post('/api/jobs', { title: 'First', where: 'Boston MA', displayLocation: false })
      await me.post('/api/jobs', { title: 'Second', where: 'Boston MA' })
      const mine = await me.get('/api/jobs/my-jobs')
      expect(mine.body.map((p: { title: string }) => p.title)).toEqual(['Second', 'First'])
      expect(mine.body[1].location).toBe('Boston MA')
      expect((await guest.get('/api/jobs/my-jobs')).status).toBe(401)
    })
  })

  describe('moderation and account deletion', () => {
    it('takes a post down on report.resolved: gone for others, still the owner to see, stays offline', async () => {
      const { body: post } = await owner.post('/api/jobs', {
        title: 'Suspicious offer narwhal',
        where: 'Boston MA',
      })
      await publishEvent(
        Topics.reports,
        newEvent('report.resolved', {
          aggregateId: 'report-1',
          actorId: null,
          data: {
            reportId: 'report-1',
            targetType: 'post',
            targetId: post._id,
            action: 'take-down',
          },
        }),
      )
      await waitFor(async () => (await stranger.get(`/api/jobs/${post._id}`)).status === 404, {
        timeoutMs: EVENT_WAIT_MS,
        what: 'take-down',
      })
      expect((await guest.get('/api/jobs?search=narwhal')).body.jobs).toEqual([])
      const own = await owner.get(`/api/jobs/${post._id}`)
      expect(own.status).toBe(200)
      // The owner is told why it stays offline, in the details and in My posts.
      expect(own.body.takenDown).toBe(true)
      const mine = (await owner.get('/api/jobs/my-jobs')).body as Array<{ _id: string }>
      expect(mine.find((p) => p._id === post._id)).toMatchObject({ takenDown: true })
      expect((await owner.put(`/api/jobs/${post._id}`, { isOnline: true })).body.isOnline).toBe(
        false,
      )
    })

    it('removes every post of a user on user.deleted', async () => {
      const leaverId = jobs.newUserId()
      const leaver = jobs.clientFor(leaverId)
      await leaver.post('/api/jobs', { title: 'Leaving soon axolotl', where: 'Boston MA' })
      await leaver.post('/api/jobs', { title: 'Leaving later axolotl', where: 'Boston MA' })
      await publishEvent(
        Topics.peopleUsers,
        newEvent('user.deleted', {
          aggregateId: leaverId,
          actorId: null,
          data: { userId: leaverId },
        }),
      )
      await waitFor(async () => (await leaver.get('/api/jobs/my-jobs')).body.length === 0, {
        timeoutMs: EVENT_WAIT_MS,
        what: 'posts removed',
      })
      expect((await guest.get('/api/jobs?search=axolotl')).body.jobs).toEqual([])
    })
  })
})
