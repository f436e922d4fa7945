import { CATEGORIES } from '@marketplace/contracts/marketplace'
import type { CommandStartedEvent } from 'mongodb'
import { waitFor } from '@marketplace/service-kit/testing'
import { PROFILES_COLLECTION } from '../profiles/profile-document'
import { startPeopleTestApp, workerProfileBody, type PeopleTestApp } from '../test/people-test-app'

interface Card {
  _id: string
  name: string
  title: string
  category: string
  contacts: Array<{ value: string; visibility: string }>
  age: number
}

describe('people service: feed, filters, search and categories (real FerretDB and Kafka)', () => {
  let people: PeopleTestApp
  const ids: Record<string, string> = {}
  let viewer: ReturnType<PeopleTestApp['clientFor']>

  /** Registers a user and gives them a worker profile; in creation order. */
  async function worker(first: string, last: string, profile: Record<string, unknown>) {
    const userId = await people.registerUser(first, last, { dateOfBirth: '1990-06-15' })
    const saved = await people
      .clientFor(userId)
      .put(`/api/users/${userId}/worker-profile`, workerProfileBody(profile))
    expect(saved.status).toBe(200)
    ids[first] = userId
    return userId
  }

  beforeAll(async () => {
    people = await startPeopleTestApp('people_feed')
    await worker('Mia', 'Lopez', { title: 'Furniture mover', location: 'Denver CO' })
    await worker('Noah', 'Kim', {
      title: 'Math tutor',
      skills: ['Algebra', 'Calculus'],
      paymentType: 'Zelle',
      location: 'Austin TX',
      contacts: [{ value: '512 555 0142', visibility: 'public' }],
    })
    await worker('Ava', 'Singh', {
      title: 'Dog walker',
      skills: ['Dogs', 'Cats'],
      paymentType: 'Cash App',
      location: 'Denver CO',
      contacts: [{ value: 'ava@example.com', visibility: 'hidden' }],
    })
    const offline = await worker('Leo', 'Offline', { title: 'Handyman', location: 'Denver CO' })
    await people
      .clientFor(offline)
      .patch(`/api/users/${offline}/worker-status`, { isOnline: false })
    // Registered but no worker profile: never in the feed.
    ids.Zoe = await people.registerUser('Zoe', 'Client')
    viewer = people.clientFor(ids.Zoe)
  })

  afterAll(async () => {
    await people?.stop()
  })

  const names = (cards: Card[]) => cards.map((card) => card.name)

  it('lists online workers only, newest first, with pages and the oldest-first order', async () => {
    const page = await people.clientFor(null).get('/api/people?limit=2')
    expect(page.status).toBe(200)
    expect(names(page.body.people)).toEqual(['Ava Singh', 'Noah Kim'])
    expect(page.body.pagination).toEqual({ page: 1, totalPages: 2, total: 3, limit: 2 })
    const second = await people.clientFor(null).get('/api/people?limit=2&page=2')
    expect(names(second.body.people)).toEqual(['Mia Lopez'])
    const oldest = await people.clientFor(null).get('/api/people?sort=asc')
    expect(names(oldest.body.people)).toEqual(['Mia Lopez', 'Noah Kim', 'Ava Singh'])
    expect(oldest.body.people[0].age).toBeGreaterThanOrEqual(35)
    expect(oldest.text).not.toMatch(/dateOfBirth|phoneNumber|"email"|1990-06-15/)

    expect((await viewer.get('/api/people?sort=sideways')).status).toBe(400)
    expect((await viewer.get('/api/people?page=0')).status).toBe(400)
    expect((await viewer.get('/api/people?limit=500')).status).toBe(400)
  })

  it('combines the category, location, payment and contact filters', async () => {
    const filtered = async (query: string) =>
      names((await viewer.get(`/api/people?${query}`)).body.people)
    expect(await filtered('location=Denver%20CO')).toEqual(['Ava Singh', 'Mia Lopez'])
    expect(await filtered('category=Moving')).toEqual(['Mia Lopez'])
    expect(await filtered('category=Pet%20care&location=Denver%20CO')).toEqual(['Ava Singh'])
    expect(await filtered('category=All&location=All')).toHaveLength(3)
    // "Cash or Venmo" answers to Cash and Venmo; "Cash App" only to Cash App.
    expect(await filtered('payment=Cash')).toEqual(['Mia Lopez'])
    expect(await filtered('payment=Cash%20App')).toEqual(['Ava Singh'])
    expect(await filtered('payment=Zelle&location=Austin%20TX')).toEqual(['Noah Kim'])
    // Contact kinds come from public contacts only: Ava's e-mail is hidden.
    expect(await filtered('contact=Email')).toEqual(['Mia Lopez'])
    expect(await filtered('contact=Phone')).toEqual(['Noah Kim'])
  })

  it('searches full names, titles and skills by word prefix', async () => {
    const search = async (text: string) =>
      names((await viewer.get(`/api/people?search=${encodeURIComponent(text)}`)).body.people)
    expect(await search('calc')).toEqual(['Noah Kim'])
    expect(await search('mia lopez')).toEqual(['Mia Lopez'])
    expect(await search('DOG')).toEqual(['Ava Singh'])
    expect(await search('handyman')).toEqual([])
    expect(await search('zoe')).toEqual([])
    // "d": Mia (driving) and Ava (dog walker, dogs); the newest first, cut at the limit.
    expect(await search('d')).toEqual(['Ava Singh', 'Mia Lopez'])
    const limited = await viewer.get('/api/people?search=d&limit=1')
    expect(names(limited.body.people)).toEqual(['Ava Singh'])
  })

  it('counts workers per category like the feed, for signed-in users only', async () => {
    expect((await people.clientFor(null).get('/api/people/categories')).status).toBe(401)
    const answer = await viewer.get('/api/people/categories')
    expect(answer.status).toBe(200)
    expect(answer.body.metadata.totalWorkers).toBe(3)
    for (const category of answer.body.categories as string[]) {
      expect(CATEGORIES as string[]).toContain(category)
      const feed = await viewer.get(`/api/people?category=${encodeURIComponent(category)}`)
      expect(feed.body.pagination.total).toBe(answer.body.metadata.counts[category])
    }
    const withEmpty = await viewer.get('/api/people/categories?includeEmpty=true')
    expect(Object.keys(withEmpty.body.metadata.counts)).toHaveLength(CATEGORIES.length)
  })

  it('shows a worker their own hidden contacts in the feed and hides them from others', async () => {
    const as = async (userId: string | null) =>
      ((await people.clientFor(userId).get('/api/people')).body.people as Card[]).find(
        (card) => card._id === ids.Ava,
      )!.contacts
    expect(await as(ids.Ava!)).toEqual([{ value: 'ava@example.com', visibility: 'hidden' }])
    expect(await as(ids.Zoe!)).toEqual([])
    expect(await as(null)).toEqual([])
  })

  it('serves the feed, search and categories without a query on the profiles collection', async () => {
    const seen: CommandStartedEvent[] = []
    const listener = (event: CommandStartedEvent) => seen.push(event)
    people.app.mongo.client.on('commandStarted', listener)
    try {
      await viewer.get('/api/people?page=1&location=Denver%20CO')
      await viewer.get('/api/people?search=dog%20walk&limit=10')
      await viewer.get('/api/people/categories')
    } finally {
      people.app.mongo.client.off('commandStarted', listener)
    }
    // Events of other test files may make a consumer read one profile by _id: that is event
    // handling. A feed served by the database would filter or sort on other fields.
    const onProfiles = seen.filter((event) => {
      const command = event.command as { find?: string; aggregate?: string; filter?: object }
      const collection = command.find ?? command.aggregate
      const keys = Object.keys(command.filter ?? {}).join()
      return collection === PROFILES_COLLECTION && keys !== '_id'
    })
    expect(onProfiles).toEqual([])
  })

  it('follows a change made by another replica through the events', async () => {
    const replica = await people.startReplica()
    await people
      .clientFor(ids.Noah!)
      .patch(`/api/users/${ids.Noah}/worker-status`, { isOnline: false })
    await waitFor(
      async () =>
        !names(
          (await people.clientFor(null, replica.baseUrl).get('/api/people')).body.people,
        ).includes('Noah Kim'),
      { timeoutMs: 60_000, what: 'the replica dropping the offline worker' },
    )
  })
})
