import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { startEventProbe } from '@marketplace/service-kit/testing'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'

// Against the real FerretDB and Kafka.
describe('jobs service: the category the owner chooses', () => {
  let jobs: JobsTestApp
  let owner: ReturnType<JobsTestApp['clientFor']>
  let guest: ReturnType<JobsTestApp['clientFor']>

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_post_category')
    owner = jobs.clientFor(jobs.newUserId())
    guest = jobs.clientFor(null)
  })
  afterAll(() => jobs.stop())

  const feedIdsOf = async (category: string): Promise<string[]> => {
    const answer = await guest.get(`/api/jobs?category=${encodeURIComponent(category)}&limit=50`)
    expect(answer.status).toBe(200)
    return answer.body.jobs.map((post: { _id: string }) => post._id)
  }

  it('stores a chosen category over the guess, and the feed finds the post under it', async () => {
    // The words say Moving; the owner says Tutoring.
    const created = await owner.post('/api/jobs', {
      title: 'Moving my lessons online',
      where: 'Boston MA',
      category: 'Tutoring',
    })
    expect(created.status).toBe(201)
    expect(created.body.category).toBe('Tutoring')
    expect((await owner.get(`/api/jobs/${created.body._id}`)).body.category).toBe('Tutoring')
    expect(await feedIdsOf('Tutoring')).toContain(created.body._id)
    expect(await feedIdsOf('Moving')).not.toContain(created.body._id)
    const counts = (await owner.get('/api/jobs/categories')).body.metadata.counts
    expect(counts.Tutoring).toBe((await feedIdsOf('Tutoring')).length)
  })

  it('carries the chosen category in post.created, as the guessed one', async () => {
    const probe = await startEventProbe(Topics.jobsPosts)
    try {
      const { body: post } = await owner.post('/api/jobs', {
        title: 'Fix a wobbly table',
        where: 'Austin TX',
        category: 'Events',
      })
      const event = await probe.waitForEvent('post.created', post._id)
      expect(event.data).toMatchObject({ postId: post._id, category: 'Events' })
    } finally {
      await probe.stop()
    }
  })

  it.each([[undefined], ['']])(
    'guesses from the words when the category is %j',
    async (category) => {
      const created = await owner.post('/api/jobs', {
        title: 'Walk my dog twice a day',
        where: 'Denver CO',
        ...(category === undefined ? {} : { category }),
      })
      expect(created.status).toBe(201)
      expect(created.body.category).toBe('Pet care')
      expect(await feedIdsOf('Pet care')).toContain(created.body._id)
    },
  )

  it('refuses a category outside the list with 400 naming the list, and stores nothing', async () => {
    const before = (await owner.get('/api/jobs/my-jobs')).body.length
    for (const category of ['Astrology', 'moving', 'All']) {
      const answer = await owner.post('/api/jobs', {
        title: 'Unique refused quokka',
        where: 'Boston MA',
        category,
      })
      expect(answer.status).toBe(400)
      expect(answer.body.message).toBe(Messages.post.invalidCategory)
      expect(answer.body.message).toContain('Moving, Cleaning, Handyman')
    }
    expect((await owner.get('/api/jobs/my-jobs')).body).toHaveLength(before)
    expect((await guest.get('/api/jobs?search=quokka')).body.jobs).toHaveLength(0)
  })

  it('Modify changes the category, and the feed follows', async () => {
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Clean the garage',
      where: 'Seattle WA',
    })
    expect(post.category).toBe('Cleaning')
    const changed = await owner.put(`/api/jobs/${post._id}`, { category: 'Handyman' })
    expect(changed.status).toBe(200)
    expect(changed.body.category).toBe('Handyman')
    expect(await feedIdsOf('Handyman')).toContain(post._id)
    expect(await feedIdsOf('Cleaning')).not.toContain(post._id)

    const refused = await owner.put(`/api/jobs/${post._id}`, {
      location: 'Miami FL',
      category: 'Astrology',
    })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe(Messages.post.invalidCategory)
    expect((await owner.get(`/api/jobs/${post._id}`)).body).toMatchObject({
      location: 'Seattle WA',
      category: 'Handyman',
    })
  })

  it('Modify without a category keeps the chosen one, whatever the infos say', async () => {
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Saturday help',
      where: 'Boston MA',
      infos: 'Boxes to carry',
      category: 'Delivery',
    })
    const changed = await owner.put(`/api/jobs/${post._id}`, {
      location: 'Austin TX',
      infos: 'Mow the lawn',
    })
    expect(changed.status).toBe(200)
    expect(changed.body.category).toBe('Delivery')
    expect((await owner.put(`/api/jobs/${post._id}`, { isOnline: 'false' })).status).toBe(200)
    expect((await owner.put(`/api/jobs/${post._id}`, { isOnline: true })).body.category).toBe(
      'Delivery',
    )
    expect(await feedIdsOf('Delivery')).toContain(post._id)
  })

  it('keeps a guessed category through edits that leave the infos alone, guessing again when they change', async () => {
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Saturday help',
      where: 'Boston MA',
      infos: 'Boxes to carry',
    })
    expect(post.category).toBe('Moving')
    const moved = await owner.put(`/api/jobs/${post._id}`, { location: 'Denver CO' })
    expect(moved.body.category).toBe('Moving')
    const reworded = await owner.put(`/api/jobs/${post._id}`, { infos: 'Mow the lawn' })
    expect(reworded.body.category).toBe('Gardening')
    expect(await feedIdsOf('Gardening')).toContain(post._id)
    // Once chosen, it stays chosen.
    await owner.put(`/api/jobs/${post._id}`, { category: 'Moving' })
    const after = await owner.put(`/api/jobs/${post._id}`, { infos: 'Walk the dog' })
    expect(after.body.category).toBe('Moving')
  })
})
