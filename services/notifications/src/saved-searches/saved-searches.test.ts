import { ObjectId, type CommandStartedEvent, type Document } from 'mongodb'
import { Topics, type EventData } from '@marketplace/contracts/events'
import {
  MAX_SAVED_SEARCHES,
  savedSearchCriteria,
  savedSearchQueryOf,
} from '@marketplace/contracts/marketplace'
import { newEvent } from '@marketplace/service-kit'
import { infraEnv, publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { BLOCK_SETS_COLLECTION, type BlockSetDocument } from '@marketplace/read-models/blocks'
import {
  APP_URL,
  EVENT_WAIT_MS,
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'
import {
  SAVED_SEARCHES_COLLECTION,
  createSavedSearchesRepository,
} from './saved-searches-repository'
import { unsubscribeToken } from './unsubscribe-token'

const SECRET = 'test-saved-search-link-secret-0123456789abcdef'
const BASE = '/api/notifications/saved-searches'

interface MailSummary {
  ID: string
  Subject: string
}

async function mailsTo(address: string): Promise<MailSummary[]> {
  const query = encodeURIComponent(`to:${address}`)
  const answer = await fetch(`${infraEnv().mailApiUrl}/api/v1/search?query=${query}`)
  return ((await answer.json()) as { messages: MailSummary[] }).messages
}

async function mailParts(id: string) {
  const [message, headers] = await Promise.all([
    fetch(`${infraEnv().mailApiUrl}/api/v1/message/${id}`).then(
      (answer) => answer.json() as Promise<{ Text: string }>,
    ),
    fetch(`${infraEnv().mailApiUrl}/api/v1/message/${id}/headers`).then(
      (answer) => answer.json() as Promise<Record<string, string[]>>,
    ),
  ])
  return { text: message.Text, headers }
}

/**
 * Saved searches and their alerts (docs/saved-searches.md), against the real FerretDB, Kafka
 * and SMTP servers: the caller's own searches, a notice once per matching post and search,
 * none for the others, the e-mails and their one-click unsubscribe.
 */
describe('notifications service: saved searches (real FerretDB, Kafka, SMTP)', () => {
  let app: NotificationsTestApp

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_saved_searches', {
      SAVED_SEARCH_LINK_SECRET: SECRET,
      DIGEST_SWEEP_MS: '300',
    })
    await app.caughtUp()
  }, 600_000)
  afterAll(async () => {
    await app?.stop()
  })

  /** post.created (or a relist's post.updated) as jobs publishes it: what anyone may see. */
  function postEvent(
    ownerId: string,
    data: Partial<EventData<'post.created'>> = {},
    type: 'post.created' | 'post.updated' = 'post.created',
  ) {
    const postId = data.postId ?? new ObjectId().toHexString()
    const at = new Date().toISOString()
    return newEvent(type, {
      aggregateId: postId,
      actorId: ownerId,
      data: {
        postId,
        ownerId,
        title: 'Move a piano downstairs',
        location: 'Austin, TX',
        jobStartEnd: 'Dec 3, 2026',
        salary: '80',
        paymentType: ['Cash'],
        contact: null,
        infos: 'Two flights of stairs, upright piano',
        displayLocation: true,
        displayContact: false,
        jobPicture: null,
        category: 'Moving',
        isOnline: true,
        takenDown: false,
        expirationDate: '2026-12-29',
        createdAt: at,
        updatedAt: at,
        ...data,
      },
    })
  }

  async function save(userId: string, body: Record<string, unknown>) {
    const answer = await app.clientFor(userId).post(BASE, body)
    expect(answer.status).toBe(201)
    return answer.body as { _id: string; name: string; query: string; email: string }
  }

  const savedSearchNotices = async (userId: string) =>
    (await app.storedFor(userId)).filter((notification) => notification.kind === 'saved-search')

  describe('the caller’s saved searches', () => {
    it('saves, lists, changes and deletes, with the query normalized', async () => {
      const { userId } = await app.registerUser('Sally')
      const me = app.clientFor(userId)
      const saved = await save(userId, {
        name: '  Piano   movers ',
        query:
          '?feed=job&category=Moving&payment=All&search=Piano&near=Austin, TX&within=25&page=3',
      })
      expect(saved).toMatchObject({
        name: 'Piano movers',
        query: 'feed=job&category=Moving&near=Austin%2C+TX&within=25&search=piano',
        email: 'immediate',
        paused: false,
      })
      const listed = await me.get(BASE)
      expect(listed.status).toBe(200)
      expect(listed.body).toMatchObject({ limit: MAX_SAVED_SEARCHES, savedSearches: [saved] })

      const changed = await me.patch(`${BASE}/${saved._id}`, {
        name: 'Pianos',
        email: 'daily',
        paused: true,
      })
      expect(changed.status).toBe(200)
      expect(changed.body).toMatchObject({ name: 'Pianos', email: 'daily', paused: true })

      expect((await me.delete(`${BASE}/${saved._id}`)).status).toBe(200)
      expect((await me.get(BASE)).body.savedSearches).toEqual([])
      expect((await me.delete(`${BASE}/${saved._id}`)).status).toBe(404)
    })

    it("answers 404 for another user's search, and changes nothing of it", async () => {
      const owner = await app.registerUser('Owen')
      const other = await app.registerUser('Otto')
      const saved = await save(owner.userId, { name: 'Gardening', query: 'category=Gardening' })
      const stranger = app.clientFor(other.userId)
      const patched = await stranger.patch(`${BASE}/${saved._id}`, { paused: true })
      expect([patched.status, patched.body.message]).toEqual([404, 'Saved search not found'])
      expect((await stranger.delete(`${BASE}/${saved._id}`)).status).toBe(404)
      expect((await stranger.get(BASE)).body.savedSearches).toEqual([])
      const mine = await app.clientFor(owner.userId).get(BASE)
      expect(mine.body.savedSearches).toMatchObject([{ _id: saved._id, paused: false }])
    })

    it('refuses a bad name or query with a clear message, and a search past the limit with 409', async () => {
      const { userId } = await app.registerUser('Lima')
      const me = app.clientFor(userId)
      const noName = await me.post(BASE, { name: '  ', query: 'feed=job' })
      expect([noName.status, noName.body.message]).toEqual([400, 'Please give the search a name'])
      const badDistance = await me.post(BASE, { name: 'Far', query: 'near=Austin&within=7' })
      expect([badDistance.status, badDistance.body.message]).toEqual([
        400,
        'within must be one of 5, 10, 25, 50 miles',
      ])
      const badFeed = await me.post(BASE, { name: 'Feed', query: 'feed=cats' })
      expect([badFeed.status, badFeed.body.message]).toEqual([400, 'feed must be job or worker'])
      // At the limit, concurrent saves included: never more than the limit.
      await Promise.all(
        Array.from({ length: MAX_SAVED_SEARCHES + 3 }, (_, i) =>
          me.post(BASE, { name: `Search ${i}`, query: `search=word${i}` }),
        ),
      )
      expect((await me.get(BASE)).body.savedSearches).toHaveLength(MAX_SAVED_SEARCHES)
      const over = await me.post(BASE, { name: 'One more', query: 'feed=job' })
      expect(over.status).toBe(409)
      expect(over.body.message).toMatch(/at most 20 saved searches/)
    })
  })

  describe('alerts', () => {
    it('tells the owner once per matching post and search (created, redelivered, relisted), and mails it with a one-click unsubscribe', async () => {
      const seeker = await app.registerUser('Sam')
      const poster = await app.registerUser('Paula')
      const search = await save(seeker.userId, {
        name: 'Pianos in Austin',
        query: 'feed=job&category=Moving&search=piano&location=Austin',
      })
      const created = postEvent(poster.userId)
      await publishEvent(Topics.jobsPosts, created)
      await publishEvent(Topics.jobsPosts, created)
      // The relist of the same post: post.updated with createdAt = updatedAt.
      const relistedAt = new Date().toISOString()
      await publishEvent(
        Topics.jobsPosts,
        postEvent(
          poster.userId,
          { postId: created.data.postId, createdAt: relistedAt, updatedAt: relistedAt },
          'post.updated',
        ),
      )
      await app.waitForStored(seeker.userId, 1)
      await app.caughtUp()
      const notices = await savedSearchNotices(seeker.userId)
      expect(notices).toHaveLength(1)
      expect([notices[0]!.message, notices[0]!.link]).toEqual([
        'New post for your saved search "Pianos in Austin": "Move a piano downstairs"',
        `/?${search.query}`,
      ])

      const [mail] = await waitFor(
        async () => {
          const found = await mailsTo(seeker.email)
          return found.length > 0 && found
        },
        { timeoutMs: EVENT_WAIT_MS, what: `the match mailed to ${seeker.email}` },
      )
      expect(mail!.Subject).toBe(notices[0]!.message)
      const { text, headers } = await mailParts(mail!.ID)
      const token = encodeURIComponent(unsubscribeToken(SECRET, search._id))
      expect(headers['List-Unsubscribe']).toEqual([
        `<${APP_URL}/api/notifications/saved-searches/unsubscribe?token=${token}>`,
      ])
      expect(headers['List-Unsubscribe-Post']).toEqual(['List-Unsubscribe=One-Click'])
      expect(text).toContain(`${APP_URL}/saved-searches/unsubscribe?token=${token}`)
    })

    it('tells nobody of a non-matching, own, offline, taken-down or blocked post, nor on a paused search; a later match still tells', async () => {
      const seeker = await app.registerUser('Nina')
      const poster = await app.registerUser('Pete')
      const blockedPoster = await app.registerUser('Bert')
      await save(seeker.userId, { name: 'Gardens', query: 'category=Gardening' })
      const paused = await save(seeker.userId, {
        name: 'Paused',
        query: 'search=hedge',
        paused: true,
      })
      await publishEvent(
        Topics.peopleUsers,
        newEvent('user.blocked', {
          aggregateId: seeker.userId,
          actorId: seeker.userId,
          data: { blockerId: seeker.userId, blockedId: blockedPoster.userId },
        }),
      )
      await waitFor(
        async () =>
          (
            await app.db
              .collection<BlockSetDocument>(BLOCK_SETS_COLLECTION)
              .findOne({ _id: blockedPoster.userId })
          )?.blockedBy?.includes(seeker.userId) === true,
        { timeoutMs: EVENT_WAIT_MS, what: 'the block known' },
      )
      const garden = { category: 'Gardening', title: 'Trim a hedge' }
      for (const event of [
        postEvent(poster.userId, { category: 'Moving', title: 'Trim a hedge' }), // other category
        postEvent(seeker.userId, garden), // their own
        postEvent(poster.userId, { ...garden, isOnline: false }), // offline
        postEvent(poster.userId, { ...garden, takenDown: true }),
        postEvent(blockedPoster.userId, garden), // blocked
        // A change of a post published earlier is no new post.
        postEvent(
          poster.userId,
          { ...garden, createdAt: '2026-11-01T10:00:00.000Z' },
          'post.updated',
        ),
      ])
        await publishEvent(Topics.jobsPosts, event)
      await app.caughtUp()
      expect(await savedSearchNotices(seeker.userId)).toEqual([])
      expect(
        await app.db
          .collection(SAVED_SEARCHES_COLLECTION)
          .countDocuments({ _id: paused._id as never }),
      ).toBe(1)

      await publishEvent(Topics.jobsPosts, postEvent(poster.userId, garden))
      await app.waitForStored(seeker.userId, 1)
      const [notice] = await savedSearchNotices(seeker.userId)
      expect(notice!.message).toBe('New post for your saved search "Gardens": "Trim a hedge"')
    })

    it('tells of a post within the miles of the search’s place, not of one farther away', async () => {
      const seeker = await app.registerUser('Gina')
      const poster = await app.registerUser('Gus')
      await save(seeker.userId, {
        name: 'Near Austin',
        query: 'feed=job&near=Austin, TX&within=25',
        email: 'off',
      })
      await publishEvent(
        Topics.jobsPosts,
        postEvent(poster.userId, { title: 'Haul boxes in Dallas', location: 'Dallas, TX' }),
      )
      await publishEvent(
        Topics.jobsPosts,
        postEvent(poster.userId, { title: 'Haul boxes in Round Rock', location: 'Round Rock, TX' }),
      )
      await app.waitForStored(seeker.userId, 1)
      await app.caughtUp()
      expect((await savedSearchNotices(seeker.userId)).map((notice) => notice.message)).toEqual([
        'New post for your saved search "Near Austin": "Haul boxes in Round Rock"',
      ])
    })

    it('tells once per search when two searches of one user match one post', async () => {
      const seeker = await app.registerUser('Tess')
      const poster = await app.registerUser('Tom')
      await save(seeker.userId, { name: 'Any cash job', query: 'payment=Cash', email: 'off' })
      await save(seeker.userId, { name: 'Painting', query: 'search=paint', email: 'off' })
      await publishEvent(
        Topics.jobsPosts,
        postEvent(poster.userId, { title: 'Paint a fence', category: 'Painting' }),
      )
      await app.waitForStored(seeker.userId, 2)
      const messages = (await savedSearchNotices(seeker.userId)).map((notice) => notice.message)
      expect(messages.sort()).toEqual([
        'New post for your saved search "Any cash job": "Paint a fence"',
        'New post for your saved search "Painting": "Paint a fence"',
      ])
      await app.caughtUp()
      expect(await mailsTo(seeker.email)).toEqual([])
    })
    it('tells of a search saved on another instance, reading the searches by `_id` alone', async () => {
      const seeker = await app.registerUser('Otto')
      const poster = await app.registerUser('Olga')
      // What another instance's route writes: this instance's index hears of it only from the
      // changes noted beside it.
      const elsewhere = createSavedSearchesRepository(app.db)
      const criteria = savedSearchCriteria('feed=job&search=violin')
      const search = await elsewhere.create(
        {
          userId: seeker.userId,
          name: 'Violins',
          query: savedSearchQueryOf(criteria),
          criteria,
          paused: false,
          email: 'off',
        },
        MAX_SAVED_SEARCHES,
      )
      const reads: Document[] = []
      const onCommand = ({ command }: CommandStartedEvent) => {
        if (command.find === SAVED_SEARCHES_COLLECTION) reads.push(command.filter as Document)
      }
      app.app.mongo.client.on('commandStarted', onCommand)
      try {
        await new Promise((resolve) => setTimeout(resolve, 1100)) // one catch-up period
        await publishEvent(
          Topics.jobsPosts,
          postEvent(poster.userId, { title: 'Tune a violin', category: 'Music' }),
        )
        await app.waitForStored(seeker.userId, 1)
      } finally {
        app.app.mongo.client.off('commandStarted', onCommand)
      }
      const [notice] = await savedSearchNotices(seeker.userId)
      if (!notice) throw new Error('no notice stored')
      expect(notice.message).toBe('New post for your saved search "Violins": "Tune a violin"')
      expect(String(notice._id)).toMatch(new RegExp(`^saved-search\\.${search._id}\\.`))
      // A post's candidates, the catch-up and the mail read one search by its `_id` (an
      // equality): any other filter, an `$in` too, reads the whole collection on FerretDB,
      // 25 s at 100,000 searches. The daily digest sweep's `digestDueAt` is the one other
      // read (an index on MongoDB).
      const otherReads = reads.filter((filter) => !('digestDueAt' in filter))
      expect(otherReads.length).toBeGreaterThan(0)
      for (const filter of otherReads) expect(typeof filter._id).toBe('string')
    })
  })

  describe('the one-click unsubscribe', () => {
    it("turns off the search's e-mail from its link without a session, and refuses a tampered link", async () => {
      const { userId } = await app.registerUser('Una')
      const first = await save(userId, { name: 'First', query: 'search=piano' })
      const second = await save(userId, { name: 'Second', query: 'search=fence' })
      const token = unsubscribeToken(SECRET, first._id)

      // RFC 8058: the mail client POSTs this form to the List-Unsubscribe URL.
      const oneClick = await fetch(
        `${app.baseUrl}${BASE}/unsubscribe?token=${encodeURIComponent(token)}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        },
      )
      expect(oneClick.status).toBe(200)
      expect(await oneClick.json()).toEqual({ name: 'First' })

      const tampered = await app.clientFor(null).post(`${BASE}/unsubscribe`, {
        token: `${second._id}.${token.split('.')[1]}`,
      })
      expect(tampered.status).toBe(404)
      expect(tampered.body.message).toMatch(/This unsubscribe link is not valid/)
      const garbage = await app.clientFor(null).post(`${BASE}/unsubscribe`, { token: 'x.y' })
      expect(garbage.status).toBe(404)

      const listed = (await app.clientFor(userId).get(BASE)).body.savedSearches as Array<{
        name: string
        email: string
      }>
      expect(listed.map(({ name, email }) => [name, email])).toEqual([
        ['First', 'off'],
        ['Second', 'immediate'],
      ])
      // The page's JSON form, with a valid link for the second one.
      const page = await app
        .clientFor(null)
        .post(`${BASE}/unsubscribe`, { token: unsubscribeToken(SECRET, second._id) })
      expect([page.status, page.body]).toEqual([200, { name: 'Second' }])
    })
  })

  describe('the daily digest', () => {
    it('gathers the day’s matches and mails them once, in one e-mail, when due', async () => {
      const seeker = await app.registerUser('Dana')
      const poster = await app.registerUser('Dirk')
      const search = await save(seeker.userId, {
        name: 'Fences',
        query: 'search=fence',
        email: 'daily',
      })
      await publishEvent(Topics.jobsPosts, postEvent(poster.userId, { title: 'Paint a fence' }))
      await publishEvent(Topics.jobsPosts, postEvent(poster.userId, { title: 'Fix a fence' }))
      const searches = app.db.collection<{ _id: string; digest?: unknown[] }>(
        SAVED_SEARCHES_COLLECTION,
      )
      await waitFor(
        async () => (await searches.findOne({ _id: search._id }))?.digest?.length === 2,
        {
          // Two notices, each stored and then handled by the mail group: slow on a loaded machine.
          timeoutMs: 3 * EVENT_WAIT_MS,
          what: 'two matches kept for the digest',
        },
      )
      expect(await mailsTo(seeker.email)).toEqual([])
      // A day later (the due date moved back rather than the clock forward).
      await searches.updateOne(
        { _id: search._id },
        { $set: { digestDueAt: new Date(Date.now() - 1000) } },
      )
      const [mail] = await waitFor(
        async () => {
          const found = await mailsTo(seeker.email)
          return found.length > 0 && found
        },
        { timeoutMs: EVENT_WAIT_MS, what: 'the digest mailed' },
      )
      expect(mail!.Subject).toBe('2 new posts for your saved search "Fences"')
      const { text, headers } = await mailParts(mail!.ID)
      expect(text).toContain('"Paint a fence"')
      expect(text).toContain('"Fix a fence"')
      expect(headers['List-Unsubscribe-Post']).toEqual(['List-Unsubscribe=One-Click'])
      expect((await searches.findOne({ _id: search._id }))?.digest).toBeUndefined()
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(await mailsTo(seeker.email)).toHaveLength(1)
    }, 300_000)
  })
})
