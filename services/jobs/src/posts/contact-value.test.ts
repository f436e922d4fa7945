import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { CONTACT_OPTIONS } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { startEventProbe } from '@marketplace/service-kit/testing'
import { announceWorker } from '../test/announce-worker'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'
import { derivedFields } from './post-input'
import { POSTS_COLLECTION, type PostDocument } from './post-document'

// A post's contact is a method and an optional value; with displayContact false both are
// private like the location: only the owner and accepted workers see them.

const NUMBER_TYPED = '(720) 555-0173'
const NUMBER = '7205550173'
// Posts of the validation tests show their value to everyone: a number of their own, so the
// privacy tests' number appears only where it may.
const OTHER_TYPED = '(646) 555-0111'
const OTHER = '6465550111'

type Client = ReturnType<JobsTestApp['clientFor']>

describe('jobs service: the contact value of a post (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp
  let owner: Client
  let stranger: Client
  let guest: Client

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_contact_value')
    owner = jobs.clientFor(jobs.newUserId())
    stranger = jobs.clientFor(jobs.newUserId())
    guest = jobs.clientFor(null)
  })
  afterAll(() => jobs.stop())

  describe('validation, the same rules as the form', () => {
    it.each([
      ['Email', 'ava@', 'Enter an e-mail address for Email, like name@example.com'],
      ['Phone', '555-0173', 'Enter a 10-digit phone number for Phone'],
      ['WhatsApp', '+44 20 7946 0958', 'Enter a 10-digit phone number for WhatsApp'],
      ['Telegram', 'call me', 'Enter a 10-digit phone number for Telegram'],
      ['Discord', 'a', Messages.contactValue.handle('Discord', 2, 32)],
      ['Instagram', 'ava turner', Messages.contactValue.handle('Instagram', 2, 32)],
      ['X(Twitter)', 'x'.repeat(33), Messages.contactValue.handle('X(Twitter)', 2, 32)],
      ['Others', 'y'.repeat(101), Messages.contactValue.text(100)],
      ['', 'ava@example.com', Messages.contactValue.withoutMethod],
    ])('creating with %s and %j answers 400 with its message', async (contact, value, message) => {
      const answer = await owner.post('/api/jobs', {
        title: 'Validation check',
        where: 'Boston MA',
        contact,
        contactValue: value,
      })
      expect(answer.status).toBe(400)
      expect(answer.body.message).toBe(message)
    })

    it.each([...CONTACT_OPTIONS])(
      'takes the documented create body with the %s method and no value (the poster shares it in the conversation)',
      async (contact) => {
        const answer = await owner.post('/api/jobs', {
          userID: owner.userId,
          title: `No value for ${contact}`,
          location: 'Boston MA',
          jobStartEnd: 'Saturday',
          salary: '$40',
          paymentType: ['Cash'],
          contact,
          infos: 'Two hours',
          displayLocation: true,
          displayContact: true,
          jobPicture: '',
        })
        expect(answer.status).toBe(201)
        expect(answer.body).toMatchObject({ contact, contactValue: null })
        // Listed, and found by the contact filter, for a guest as for anyone.
        const filtered = await guest.get(
          `/api/jobs?contact=${encodeURIComponent(contact)}&page=1&limit=50`,
        )
        expect(filtered.status).toBe(200)
        const listed = (filtered.body.jobs as Array<Record<string, unknown>>).find(
          (post) => post._id === answer.body._id,
        )
        expect(listed).toMatchObject({ contact, contactValue: null })
        const blank = await owner.post('/api/jobs', {
          title: `Blank value for ${contact}`,
          location: 'Boston MA',
          contact,
          contactValue: '  ',
        })
        expect(blank.status).toBe(201)
        expect(blank.body.contactValue).toBeNull()
      },
    )

    it.each([
      ['Email', ' Ava.Turner@Example.COM ', 'ava.turner@example.com'],
      ['Phone', '646.555.0111', OTHER],
      ['WhatsApp', OTHER_TYPED, OTHER],
      ['Telegram', '+1 646 555 0111', OTHER],
      ['Discord', '@ava.turner', 'ava.turner'],
      ['Instagram', 'ava_turner', 'ava_turner'],
      ['X(Twitter)', '@AvaTurner', 'AvaTurner'],
      ['Others', ' Signal, same number as my phone ', 'Signal, same number as my phone'],
    ])('stores %s %j as %j', async (contact, value, stored) => {
      const answer = await owner.post('/api/jobs', {
        title: 'Stored value',
        where: 'Boston MA',
        contact,
        contactValue: value,
      })
      expect(answer.status).toBe(201)
      expect(answer.body).toMatchObject({ contact, contactValue: stored })
    })

    it('judges an edit: a new value, a new method, a cleared method', async () => {
      const { body: post } = await owner.post('/api/jobs', {
        title: 'Edit the contact',
        where: 'Boston MA',
        contact: 'WhatsApp',
        contactValue: OTHER_TYPED,
      })
      const bad = await owner.put(`/api/jobs/${post._id}`, { contactValue: '12' })
      expect(bad.status).toBe(400)
      expect(bad.body.message).toBe('Enter a 10-digit phone number for WhatsApp')
      // WhatsApp to Phone keeps the number; to Email the number is dropped (it is no address).
      const phone = await owner.put(`/api/jobs/${post._id}`, { contact: 'Phone' })
      expect(phone.body).toMatchObject({ contact: 'Phone', contactValue: OTHER })
      const email = await owner.put(`/api/jobs/${post._id}`, { contact: 'Email' })
      expect(email.status).toBe(200)
      expect(email.body).toMatchObject({ contact: 'Email', contactValue: null })
      const wrong = await owner.put(`/api/jobs/${post._id}`, { contactValue: OTHER_TYPED })
      expect(wrong.status).toBe(400)
      expect(wrong.body.message).toBe(Messages.contactValue.email)
      const changed = await owner.put(`/api/jobs/${post._id}`, {
        contact: 'Email',
        contactValue: 'Olga@Example.com',
      })
      expect(changed.body).toMatchObject({ contact: 'Email', contactValue: 'olga@example.com' })
      const none = await owner.put(`/api/jobs/${post._id}`, { contact: '' })
      expect(none.body).toMatchObject({ contact: '', contactValue: null })
      expect((await owner.get(`/api/jobs/${post._id}`)).body.contactValue).toBeNull()
      await owner.put(`/api/jobs/${post._id}`, { contact: 'Others', contactValue: 'Signal' })
      const cleared = await owner.put(`/api/jobs/${post._id}`, { contactValue: '' })
      expect(cleared.status).toBe(200)
      expect(cleared.body).toMatchObject({ contact: 'Others', contactValue: null })
    })
  })

  describe('privacy: the method and the value follow displayContact as the location does', () => {
    let postId: string
    let publicPostId: string
    let accepted: Client
    let pending: Client
    let rejected: Client

    beforeAll(async () => {
      const [acceptedId, pendingId, rejectedId] = await Promise.all([
        announceWorker(jobs, 'Alma'),
        announceWorker(jobs, 'Penny'),
        announceWorker(jobs, 'Rita'),
      ])
      accepted = jobs.clientFor(acceptedId)
      pending = jobs.clientFor(pendingId)
      rejected = jobs.clientFor(rejectedId)
      const created = await owner.post('/api/jobs', {
        title: 'Repot the quillwort garden',
        where: 'Boston MA',
        contact: 'WhatsApp',
        contactValue: NUMBER_TYPED,
        displayContact: false,
      })
      expect(created.status).toBe(201)
      postId = created.body._id
      const requestOf = async (client: Client) =>
        (await client.post('/api/jobs/requests', { postID: postId })).body._id as string
      const [acceptedRequest, , rejectedRequest] = await Promise.all([
        requestOf(accepted),
        requestOf(pending),
        requestOf(rejected),
      ])
      await owner.patch(`/api/jobs/requests/${acceptedRequest}`, { status: 'accepted' })
      await owner.patch(`/api/jobs/requests/${rejectedRequest}`, { status: 'rejected' })
      publicPostId = (
        await owner.post('/api/jobs', {
          title: 'Weed the quillwort border',
          where: 'Boston MA',
          contact: 'Instagram',
          contactValue: '@olga.gardens',
          displayContact: true,
        })
      ).body._id
    }, 200_000)

    /** Every answer of the jobs service that shows the post to this viewer. */
    const readPaths = (client: Client) => [
      client.get(`/api/jobs/${postId}`),
      client.get('/api/jobs?page=1&limit=50'),
      client.get('/api/jobs?search=quillwort&limit=10'),
    ]

    it('never matches a private contact with the contact filter, as a hidden location is never matched by the location filter', async () => {
      for (const client of [guest, stranger, pending, owner]) {
        const filtered = await client.get('/api/jobs?contact=WhatsApp&page=1&limit=50')
        expect(filtered.status).toBe(200)
        expect(filtered.text).not.toContain('Repot the quillwort garden')
        expect(filtered.text).not.toContain(NUMBER)
      }
      const open = await guest.get('/api/jobs?contact=Instagram&page=1&limit=50')
      expect(open.text).toContain('Weed the quillwort border')
    })

    it('shows the value to the owner on details, feed, search and my posts', async () => {
      for (const answer of [
        ...(await Promise.all(readPaths(owner))),
        await owner.get('/api/jobs/my-jobs'),
      ]) {
        expect(answer.status).toBe(200)
        expect(answer.text).toContain(NUMBER)
      }
      expect((await owner.get(`/api/jobs/${postId}`)).body).toMatchObject({
        contact: 'WhatsApp',
        contactValue: NUMBER,
      })
    })

    it('shows the value to the accepted worker on every read path, sent requests included', async () => {
      for (const answer of await Promise.all(readPaths(accepted))) {
        expect(answer.status).toBe(200)
        expect(answer.text).toContain(NUMBER)
      }
      expect((await accepted.get(`/api/jobs/${postId}`)).body).toMatchObject({
        contact: 'WhatsApp',
        contactValue: NUMBER,
      })
      const sent = await accepted.get(`/api/jobs/user/${accepted.userId}/sent-requests`)
      expect(sent.body[0].post).toMatchObject({
        _id: postId,
        contact: 'WhatsApp',
        contactValue: NUMBER,
      })
    })

    it.each(['stranger', 'pending requester', 'rejected requester', 'guest'] as const)(
      'hides the method and the value from a %s on every read path',
      async (who) => {
        const client = {
          stranger,
          'pending requester': pending,
          'rejected requester': rejected,
          guest,
        }[who]
        for (const answer of await Promise.all(readPaths(client))) {
          expect(answer.status).toBe(200)
          expect(answer.text).toContain('Repot the quillwort garden')
          expect(answer.text).not.toContain(NUMBER)
          const entries = (answer.body.jobs ?? [answer.body]) as Array<Record<string, unknown>>
          const entry = entries.find((candidate) => candidate._id === postId)
          expect(entry).toMatchObject({ contact: null, contactValue: null })
        }
        const details = (await client.get(`/api/jobs/${postId}`)).body
        expect(details).toMatchObject({ contact: null, contactValue: null, displayContact: false })
        expect(details).not.toHaveProperty('contactValueMasked')
        if (who === 'pending requester' || who === 'rejected requester') {
          const sent = await client.get(`/api/jobs/user/${client.userId}/sent-requests`)
          expect(sent.status).toBe(200)
          expect(sent.text).not.toContain(NUMBER)
          expect(sent.body[0].post).toMatchObject({
            _id: postId,
            contact: null,
            contactValue: null,
          })
        }
      },
    )

    it('gives the received requests list (the owner) no contact value to carry', async () => {
      const received = await owner.get(`/api/jobs/user/${owner.userId}/received-requests`)
      expect(received.status).toBe(200)
      expect(received.text).not.toContain(NUMBER)
    })

    it('shows everyone the value of a post whose contact is public', async () => {
      for (const client of [stranger, guest, pending]) {
        const details = await client.get(`/api/jobs/${publicPostId}`)
        expect(details.body).toMatchObject({ contact: 'Instagram', contactValue: 'olga.gardens' })
      }
    })

    it('takes the value back when the acceptance is undone', async () => {
      const sent = await accepted.get(`/api/jobs/user/${accepted.userId}/sent-requests`)
      const requestId = sent.body[0]._id as string
      await owner.patch(`/api/jobs/requests/${requestId}`, { status: 'pending' })
      const details = await accepted.get(`/api/jobs/${postId}`)
      expect(details.body).toMatchObject({ contact: null, contactValue: null })
      expect((await accepted.get('/api/jobs?search=quillwort&limit=10')).text).not.toContain(NUMBER)
      await owner.patch(`/api/jobs/requests/${requestId}`, { status: 'accepted' })
      expect((await accepted.get(`/api/jobs/${postId}`)).body.contactValue).toBe(NUMBER)
    })
  })

  it('never puts the value in post.created or post.updated, even when it is public', async () => {
    const probe = await startEventProbe(Topics.jobsPosts)
    try {
      const { body: post } = await owner.post('/api/jobs', {
        title: 'Event payload check',
        where: 'Boston MA',
        contact: 'Telegram',
        contactValue: NUMBER_TYPED,
        displayContact: true,
      })
      const created = await probe.waitForEvent('post.created', post._id)
      await owner.put(`/api/jobs/${post._id}`, { contactValue: '303-555-0142' })
      const updated = await probe.waitForEvent('post.updated', post._id)
      for (const event of [created, updated]) {
        expect(event.data).toMatchObject({ postId: post._id, contact: 'Telegram' })
        const text = JSON.stringify(event)
        expect(text).not.toContain(NUMBER)
        expect(text).not.toContain('3035550142')
        expect(text).not.toContain('contactValue')
      }
    } finally {
      await probe.stop()
    }
  })

  describe('posts from before contact values', () => {
    async function insertOldPost(title: string): Promise<string> {
      const at = new Date()
      const fields = { title, infos: '', expirationDate: null }
      const old: Omit<PostDocument, 'contactValue'> = {
        _id: new ObjectId().toHexString(),
        userID: owner.userId!,
        location: 'Boston MA',
        jobStartEnd: '',
        salary: '',
        paymentType: [],
        contact: 'WhatsApp',
        displayLocation: true,
        displayContact: false,
        jobPicture: null,
        isOnline: true,
        takenDown: false,
        createdAt: at,
        updatedAt: at,
        ...fields,
        ...derivedFields(fields),
      }
      await jobs.db.collection<Omit<PostDocument, 'contactValue'>>(POSTS_COLLECTION).insertOne(old)
      return old._id
    }

    it('reads with the method and no value for the owner, and hides its private method from everyone else', async () => {
      const postId = await insertOldPost('Old post without a value')
      expect((await owner.get(`/api/jobs/${postId}`)).body).toMatchObject({
        contact: 'WhatsApp',
        contactValue: null,
      })
      for (const client of [stranger, guest]) {
        expect((await client.get(`/api/jobs/${postId}`)).body).toMatchObject({
          contact: null,
          contactValue: null,
        })
      }
    })

    it('can be edited without a value, and given one', async () => {
      const postId = await insertOldPost('Old post to modify')
      expect((await owner.put(`/api/jobs/${postId}`, { isOnline: false })).status).toBe(200)
      const located = await owner.put(`/api/jobs/${postId}`, {
        location: 'Denver CO',
        contact: 'WhatsApp',
      })
      expect(located.status).toBe(200)
      const moved = await owner.put(`/api/jobs/${postId}`, { contact: 'Telegram' })
      expect(moved.status).toBe(200)
      const given = await owner.put(`/api/jobs/${postId}`, { contactValue: NUMBER_TYPED })
      expect(given.status).toBe(200)
      expect(given.body).toMatchObject({ contact: 'Telegram', contactValue: NUMBER })
      expect((await stranger.get(`/api/jobs/${postId}`)).body).toMatchObject({
        contact: null,
        contactValue: null,
      })
    })
  })
})
