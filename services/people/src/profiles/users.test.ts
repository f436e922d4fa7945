import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { newEvent } from '@marketplace/service-kit'
import {
  publishEvent,
  recordPublishedEvents,
  startEventProbe,
  waitFor,
} from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startPeopleTestApp,
  workerProfileBody,
  type PeopleTestApp,
} from '../test/people-test-app'

const PRIVATE_FIELDS = ['email', 'phoneNumber', 'dateOfBirth', 'contactViewers', 'deletion']

describe('people service: user and worker profiles (real FerretDB and Kafka)', () => {
  let people: PeopleTestApp
  type Client = ReturnType<PeopleTestApp['clientFor']>
  let aliceId: string
  let alice: Client
  let bob: Client

  beforeAll(async () => {
    people = await startPeopleTestApp('people_users')
    aliceId = await people.registerUser('Alice', 'Moreau', { dateOfBirth: '1990-06-15' })
    alice = people.clientFor(aliceId)
    bob = people.clientFor(await people.registerUser('Bob', 'Stranger'))
  })

  afterAll(async () => {
    await people?.stop()
  })

  it('shows a user their whole profile and a stranger only the public part', async () => {
    const own = await alice.get(`/api/users/${aliceId}`)
    expect(own.status).toBe(200)
    expect(own.body).toMatchObject({
      _id: aliceId,
      firstName: 'Alice',
      lastName: 'Moreau',
      email: 'alice.moreau@example.com',
      phoneNumber: '(212) 555-0100',
      isWorker: false,
    })
    const seen = await bob.get(`/api/users/${aliceId}`)
    expect(seen.status).toBe(200)
    expect(seen.body).toMatchObject({ _id: aliceId, firstName: 'Alice', isWorker: false })
    expect(typeof seen.body.age).toBe('number')
    for (const field of PRIVATE_FIELDS) expect(seen.body).not.toHaveProperty(field)
    expect(seen.text).not.toContain('1990-06-15')

    expect((await bob.get(`/api/users/${people.newUserId()}`)).status).toBe(404)
    expect((await people.clientFor(null).get(`/api/users/${aliceId}`)).status).toBe(401)
  })

  it('lets a user edit their names and phone with the sign-up rules, and no one else', async () => {
    const probe = await startEventProbe(Topics.peopleUsers)
    try {
      const bad = await alice.put(`/api/users/${aliceId}`, {
        firstName: 'Al1ce',
        lastName: 'Moreau',
        phoneNumber: '2125550100',
      })
      expect(bad.status).toBe(400)
      expect(bad.body.message).toBe(Messages.signup.invalidFirstName)
      const withEmail = await alice.put(`/api/users/${aliceId}`, {
        firstName: 'Alice',
        lastName: 'Moreau',
        phoneNumber: '2125550100',
        email: 'new@example.com',
      })
      expect(withEmail.status).toBe(400)

      const foreign = await bob.put(`/api/users/${aliceId}`, {
        firstName: 'Mallory',
        lastName: 'Moreau',
        phoneNumber: '2125550100',
      })
      expect(foreign.status).toBe(403)

      const saved = await alice.put(`/api/users/${aliceId}`, {
        firstName: 'Alicia',
        lastName: 'Moreau',
        phoneNumber: '303 555 0123',
      })
      expect(saved.status).toBe(200)
      expect(saved.body).toMatchObject({ firstName: 'Alicia', phoneNumber: '(303) 555-0123' })
      const event = await probe.waitForEvent('user.profile-updated', aliceId, EVENT_WAIT_MS)
      expect(event.data).toEqual({
        userId: aliceId,
        firstName: 'Alicia',
        lastName: 'Moreau',
        phoneNumber: '(303) 555-0123',
      })
      expect((await bob.get(`/api/users/${aliceId}`)).body.firstName).toBe('Alicia')
    } finally {
      await probe.stop()
    }
  })

  it('saves a last name of several words, as the account form splits "Mary Ann Smith"', async () => {
    const saved = await alice.put(`/api/users/${aliceId}`, {
      firstName: 'Mary',
      lastName: ' Ann   Smith-Jones ',
      phoneNumber: '2125550100',
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ firstName: 'Mary', lastName: 'Ann Smith-Jones' })
    const refused = await alice.put(`/api/users/${aliceId}`, {
      firstName: 'Mary',
      lastName: 'Ann 3rd',
      phoneNumber: '2125550100',
    })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe(Messages.signup.invalidLastName)
  })

  it('creates a worker profile with the spec rules, makes the user a worker and announces it', async () => {
    const probe = await startEventProbe(Topics.peopleUsers)
    try {
      const missing = await alice.put(
        `/api/users/${aliceId}/worker-profile`,
        workerProfileBody({ title: '  ' }),
      )
      expect(missing.status).toBe(400)
      expect(missing.body.message).toBe(Messages.workerProfile.titleRequired)
      const noSkills = await alice.put(
        `/api/users/${aliceId}/worker-profile`,
        workerProfileBody({ skills: [' ', ''] }),
      )
      expect(noSkills.body.message).toBe(Messages.workerProfile.skillsRequired)
      const wrongType = await alice.put(
        `/api/users/${aliceId}/worker-profile`,
        workerProfileBody({ skills: 'Lifting' }),
      )
      expect(wrongType.status).toBe(400)
      const othersPicture = await alice.put(
        `/api/users/${aliceId}/worker-profile`,
        workerProfileBody({ profilePicture: `userImages/${people.newUserId()}/me.png` }),
      )
      expect(othersPicture.status).toBe(400)
      const foreign = await bob.put(`/api/users/${aliceId}/worker-profile`, workerProfileBody())
      expect(foreign.status).toBe(403)

      const created = await alice.put(
        `/api/users/${aliceId}/worker-profile`,
        workerProfileBody({ profilePicture: `userImages/${aliceId}/me.png` }),
      )
      expect(created.status).toBe(200)
      expect(created.body).toMatchObject({
        isWorker: true,
        title: 'House mover',
        skills: ['Lifting', 'Driving'],
        category: 'Moving',
        isOnline: true,
        profilePicture: `userImages/${aliceId}/me.png`,
      })
      // The owner sees every contact, hidden ones included.
      expect(created.body.contacts).toHaveLength(2)
      const event = await probe.waitForEvent('worker-profile.updated', aliceId, EVENT_WAIT_MS)
      expect(event.data).toMatchObject({
        userId: aliceId,
        isWorker: true,
        title: 'House mover',
        skills: ['Lifting', 'Driving'],
        isOnline: true,
        // The rest of the public view, for read models; never a hidden contact.
        availability: 'Weekends',
        location: 'Denver CO',
        publicContacts: ['mover@example.com'],
        category: 'Moving',
        takenDown: false,
      })

      const status = await alice.patch(`/api/users/${aliceId}/worker-status`, { isOnline: false })
      expect(status.status).toBe(200)
      expect(status.body.isOnline).toBe(false)
      expect((await alice.patch(`/api/users/${aliceId}/worker-status`, {})).status).toBe(400)
      expect(
        (await bob.patch(`/api/users/${aliceId}/worker-status`, { isOnline: true })).status,
      ).toBe(403)
      await alice.patch(`/api/users/${aliceId}/worker-status`, { isOnline: true })
    } finally {
      await probe.stop()
    }
  })

  it('shows hidden contacts only to the worker and to owners of posts the worker requested', async () => {
    const ownerId = await people.registerUser('Olga', 'Owner')
    const owner = people.clientFor(ownerId)
    const hiddenOf = async (client: ReturnType<PeopleTestApp['clientFor']>) =>
      ((await client.get(`/api/users/${aliceId}`)).body.contacts as Array<{ value: string }>).map(
        (contact) => contact.value,
      )
    expect(await hiddenOf(owner)).toEqual(['mover@example.com'])
    expect(await hiddenOf(bob)).toEqual(['mover@example.com'])

    const jobRequest = (type: 'job-request.created' | 'job-request.deleted') => {
      const data = {
        requestId: 'jr-1',
        postId: 'post-1',
        postTitle: 'Move a sofa',
        ownerId,
        requesterId: aliceId,
        requesterName: 'Alicia Moreau',
        status: 'pending' as const,
      }
      return type === 'job-request.created'
        ? newEvent(type, { aggregateId: 'jr-1', actorId: aliceId, data })
        : newEvent(type, {
            aggregateId: 'jr-1',
            actorId: aliceId,
            data: { ...data, deletedBy: 'requester' as const },
          })
    }
    await publishEvent(Topics.jobsRequests, jobRequest('job-request.created'))
    await waitFor(async () => (await hiddenOf(owner)).includes('(303) 555-0199'), {
      timeoutMs: EVENT_WAIT_MS,
      what: "the owner seeing Alice's hidden contact",
    })
    expect(await hiddenOf(bob)).toEqual(['mover@example.com'])
    // Also in the people feed.
    const feed = await owner.get('/api/people?limit=50')
    const card = feed.body.people.find((person: { _id: string }) => person._id === aliceId)
    expect(card.contacts).toHaveLength(2)
    expect(feed.text).not.toContain('alice.moreau@example.com')

    await publishEvent(Topics.jobsRequests, jobRequest('job-request.deleted'))
    await waitFor(async () => !(await hiddenOf(owner)).includes('(303) 555-0199'), {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the hidden contact taken back',
    })
  })

  it('hides a worker a moderator took down from the feed and from others, for good', async () => {
    const carlId = await people.registerUser('Carl', 'Flagged')
    const carl = people.clientFor(carlId)
    expect(
      (await carl.put(`/api/users/${carlId}/worker-profile`, workerProfileBody())).status,
    ).toBe(200)
    const listed = async () =>
      ((await bob.get('/api/people?search=Flagged&limit=10')).body.people as Array<{ _id: string }>)
        .map((person) => person._id)
        .includes(carlId)
    expect(await listed()).toBe(true)

    // This app's announcement: the package's other test files run apps beside this one that
    // also learnt of Carl's sign-up (not of his worker profile) and take him down too.
    const sent = recordPublishedEvents(people.app)
    try {
      await publishEvent(
        Topics.reports,
        newEvent('report.resolved', {
          aggregateId: 'report-1',
          actorId: 'moderator-1',
          data: {
            reportId: 'report-1',
            targetType: 'person',
            targetId: carlId,
            action: 'take-down',
          },
        }),
      )
      // The take-down's announcement, not the profile PUT's own: its outbox may publish only
      // now, after the recording started, under a loaded machine.
      const event = await waitFor(
        () =>
          sent
            .events()
            .find(
              (e) =>
                e.type === 'worker-profile.updated' &&
                e.aggregateId === carlId &&
                (e.data as { takenDown?: boolean }).takenDown === true,
            ),
        { timeoutMs: EVENT_WAIT_MS, what: 'worker-profile.updated of the take-down' },
      )
      expect(event.data).toMatchObject({ takenDown: true, isOnline: false })
    } finally {
      sent.stop()
    }
    expect(await listed()).toBe(false)
    const seenByBob = await bob.get(`/api/users/${carlId}`)
    expect(seenByBob.body).toMatchObject({ isWorker: false, title: '', contacts: [] })
    // The owner still sees their profile, and cannot switch it back on.
    expect((await carl.get(`/api/users/${carlId}`)).body.title).toBe('House mover')
    const back = await carl.patch(`/api/users/${carlId}/worker-status`, { isOnline: true })
    expect(back.status).toBe(403)
    expect(back.body.message).toBe(Messages.workerProfile.takenDown)
    // Saving the profile again keeps it offline.
    await carl.put(`/api/users/${carlId}/worker-profile`, workerProfileBody({ isOnline: true }))
    expect(await listed()).toBe(false)
  })
})
