import type { CommandStartedEvent } from 'mongodb'
import { ObjectId } from 'mongodb'
import { waitFor } from '@marketplace/service-kit/testing'
import { POSTS_COLLECTION, type PostDocument } from '../posts/post-document'
import { derivedFields } from '../posts/post-input'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
const EVENT_WAIT_MS = 60_000

const LOCATIONS = ['Boston MA', 'Austin TX', 'Denver CO']
const TITLES = [
  'Help moving boxes',
  'Deep clean apartment',
  'Fix leaking faucet',
  'Walk my dog',
  'Queue for tickets',
]

/** Posts written straight to the database (as the benchmark's generator does), then loaded. */
function makePosts(count: number, ownerId: string): PostDocument[] {
  const start = Date.UTC(2026, 0, 1)
  return Array.from({ length: count }, (_, i) => {
    const fields = {
      title: `${TITLES[i % TITLES.length]} ${i}`,
      infos: i % 7 === 0 ? 'Bring gloves' : '',
      expirationDate: null,
    }
    return {
      _id: new ObjectId().toHexString(),
      userID: ownerId,
      location: LOCATIONS[i % LOCATIONS.length]!,
      jobStartEnd: '',
      salary: '$20/h',
      paymentType: i % 2 === 0 ? ['Cash'] : ['Cash', 'Zelle'],
      contact: i % 3 === 0 ? 'Phone' : 'Email',
      displayLocation: i % 10 !== 0,
      displayContact: true,
      jobPicture: null,
      isOnline: i % 11 !== 0,
      takenDown: false,
      createdAt: new Date(start + i * 60_000),
      updatedAt: new Date(start + i * 60_000),
      ...fields,
      ...derivedFields(fields),
    }
  })
}

describe('jobs service: feed, categories and search over HTTP', () => {
  let jobs: JobsTestApp
  let posts: PostDocument[]
  let live: PostDocument[]
  const guest = () => jobs.clientFor(null)
  const user = () => jobs.clientFor(jobs.newUserId())

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_feed')
    posts = makePosts(240, jobs.newUserId())
    await jobs.db.collection<PostDocument>(POSTS_COLLECTION).insertMany(posts)
    await jobs.app.feedSync.load()
    live = posts
      .filter((post) => post.isOnline)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
  })
  afterAll(() => jobs.stop())

  it('loads while another load is under way (the start-up load and the one after the join overlap)', async () => {
    await Promise.all([jobs.app.feedSync.load(), jobs.app.feedSync.load()])
    const first = await guest().get('/api/jobs?page=1&sort=desc')
    expect(first.body.pagination.total).toBe(live.length)
  })

  it('pages live posts newest first, 12 a page, with page, totalPages and total', async () => {
    const first = await guest().get('/api/jobs?page=1&sort=desc')
    expect(first.status).toBe(200)
    expect(first.body.pagination).toEqual({
      page: 1,
      totalPages: Math.ceil(live.length / 12),
      total: live.length,
      limit: 12,
    })
    expect(first.body.jobs.map((p: PostDocument) => p._id)).toEqual(
      live.slice(0, 12).map((p) => p._id),
    )
    const third = await guest().get('/api/jobs?page=3')
    expect(third.body.jobs.map((p: PostDocument) => p._id)).toEqual(
      live.slice(24, 36).map((p) => p._id),
    )
    const oldest = await guest().get('/api/jobs?sort=asc&limit=5')
    expect(oldest.body.jobs.map((p: PostDocument) => p._id)).toEqual(
      live
        .slice(-5)
        .reverse()
        .map((p) => p._id),
    )
  })

  it('combines category, location, payment and contact; "All" means no filter', async () => {
    const expected = live.filter(
      (p) =>
        p.category === 'Moving' &&
        p.location === 'Boston MA' &&
        p.displayLocation &&
        p.paymentType.includes('Zelle') &&
        p.contact === 'Phone',
    )
    expect(expected.length).toBeGreaterThan(0)
    const answer = await guest().get(
      '/api/jobs?category=Moving&location=Boston%20MA&payment=Zelle&contact=Phone&page=1&limit=50',
    )
    expect(answer.body.pagination.total).toBe(expected.length)
    expect(answer.body.jobs.map((p: PostDocument) => p._id)).toEqual(
      expected.slice(0, 50).map((p) => p._id),
    )
    const all = await guest().get('/api/jobs?category=All&location=All&payment=All&contact=All')
    expect(all.body.pagination.total).toBe(live.length)
  })

  it('answers 400 with a readable message for a bad page, limit or sort', async () => {
    for (const query of ['page=0', 'page=abc', 'limit=51', 'limit=0', 'sort=sideways']) {
      const answer = await guest().get(`/api/jobs?${query}`)
      expect(answer.status).toBe(400)
      expect(answer.body.message).toMatch(/page|limit|sort/)
    }
  })

  it('needs login for categories, whose counts equal the feed total of each category', async () => {
    expect((await guest().get('/api/jobs/categories')).status).toBe(401)
    const answer = await user().get(
      '/api/jobs/categories?includeEmpty=false&includeUncategorized=true',
    )
    expect(answer.status).toBe(200)
    expect(answer.body.metadata.totalJobs).toBe(live.length)
    for (const [category, count] of Object.entries(
      answer.body.metadata.counts as Record<string, number>,
    )) {
      expect(count).toBeGreaterThan(0)
      const feed = await guest().get(`/api/jobs?category=${encodeURIComponent(category)}`)
      expect(feed.body.pagination.total).toBe(count)
    }
    expect(answer.body.categories).toEqual(Object.keys(answer.body.metadata.counts))
    expect(answer.body.categories).toContain('Uncategorized')
    const withEmpty = await user().get(
      '/api/jobs/categories?includeEmpty=true&includeUncategorized=false',
    )
    expect(withEmpty.body.categories).toContain('Gardening')
    expect(withEmpty.body.categories).not.toContain('Uncategorized')
    expect(withEmpty.body.metadata.counts.Gardening).toBe(0)
  })

  it('searches by word and prefix in any case, newest first, at most limit results', async () => {
    const answer = await guest().get('/api/jobs?search=%20%20FAUC%20&limit=10')
    expect(answer.status).toBe(200)
    const expected = live.filter((p) => p.title.startsWith('Fix leaking faucet'))
    expect(answer.body.jobs.map((p: PostDocument) => p._id)).toEqual(
      expected.slice(0, 10).map((p) => p._id),
    )
    const two = await guest().get('/api/jobs?search=gloves%20deep&limit=50')
    expect(two.body.jobs.map((p: PostDocument) => p._id)).toEqual(
      live
        .filter((p) => p.title.startsWith('Deep clean') && p.infos === 'Bring gloves')
        .map((p) => p._id),
    )
    expect((await guest().get('/api/jobs?search=zzzz')).body.jobs).toEqual([])
  })

  it('serves feed pages, search and categories without a single query on the posts collection', async () => {
    const seen: CommandStartedEvent[] = []
    const listener = (event: CommandStartedEvent) => seen.push(event)
    jobs.app.mongo.client.on('commandStarted', listener)
    try {
      const reader = user()
      await reader.get('/api/jobs?page=1')
      await reader.get('/api/jobs?page=15&category=Cleaning&location=Austin%20TX')
      await reader.get('/api/jobs?search=moving&limit=10')
      await reader.get('/api/jobs/categories')
    } finally {
      jobs.app.mongo.client.off('commandStarted', listener)
    }
    // Other test files publish post and user events on the shared broker; this app's
    // consumers then read one post by _id or one owner's posts ({userID}). That is event
    // handling, not the feed: a feed served by the database would filter or sort on other
    // fields (isOnline, category, createdAt, ...), and that is what must never happen.
    const isOwnerLookup = (event: CommandStartedEvent) => {
      const filter = (event.command as { filter?: Record<string, unknown> }).filter
      const keys = filter ? Object.keys(filter).join() : ''
      return keys === 'userID' || keys === '_id'
    }
    const onPosts = seen.filter(
      (event) =>
        (event.command as Record<string, unknown>)[event.commandName] === POSTS_COLLECTION &&
        !isOwnerLookup(event),
    )
    expect(onPosts).toEqual([])
  })

  it('the database queries it does make are pushed down as far as the server reports', async () => {
    // What FerretDB v1 reports: filterPushdown / sortPushdown / limitPushdown flags (MongoDB
    // would report stages instead; docs/posts.md). The by-id lookup of details, updates and
    // requests must have its filter evaluated by the storage engine, not by the proxy.
    const byId = await jobs.db.command({
      explain: { find: POSTS_COLLECTION, filter: { _id: posts[0]!._id }, limit: 1 },
    })
    expect(byId.filterPushdown).toBe(true)
    // The feed's start-up load reads in natural order: no filter, no sort to push down.
    const load = await jobs.db.command({
      explain: { find: POSTS_COLLECTION, filter: {}, batchSize: 1000 },
    })
    expect(load.filterPushdown).toBe(false)
    expect(load.sortPushdown).toBe(false)
  })

  it('a second replica learns every change through events and the by-id read', async () => {
    const replica = await jobs.startReplica()
    const owner = jobs.clientFor(jobs.newUserId())
    const atReplica = jobs.clientFor(null, replica.baseUrl)
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Replica wombat check',
      where: 'Boston MA',
    })
    await waitFor(
      async () => (await atReplica.get('/api/jobs?search=wombat')).body.jobs.length === 1,
      { timeoutMs: EVENT_WAIT_MS, what: 'the replica to index the new post' },
    )
    await owner.put(`/api/jobs/${post._id}`, { isOnline: false })
    await waitFor(
      async () => (await atReplica.get('/api/jobs?search=wombat')).body.jobs.length === 0,
      { timeoutMs: EVENT_WAIT_MS, what: 'the replica to drop the offline post' },
    )
    // Joining the service's shared consumer groups makes the first instance rebalance: ~10 s.
  }, 150_000)
})
