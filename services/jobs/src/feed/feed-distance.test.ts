import { ObjectId } from 'mongodb'
import { milesBetween, resolvePlace, roundedMiles, type LatLon } from '@marketplace/geo'
import { waitFor } from '@marketplace/service-kit/testing'
import { POSTS_COLLECTION, type PostDocument } from '../posts/post-document'
import { derivedFields } from '../posts/post-input'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'

interface FeedPost {
  _id: string
  title: string
  location: string | null
  distanceMiles?: number
  distanceRounded?: true
}

function at(text: string): LatLon {
  const place = resolvePlace(text)
  if (!place) throw new Error(`test place ${text} unknown`)
  return place
}

// Known coordinates (GeoNames, US ZIP centroids): from Austin, Pflugerville is 14.0 mi, Round Rock
// 17.1, Georgetown 25.6 and San Antonio 73.6; ZIP 78664's centre is 0.8 mi from Round Rock's.
const AUSTIN = at('Austin, TX')
const ROUND_ROCK = at('Round Rock, TX')
const ZIP_78664 = at('78664')

describe('jobs feed and search within N miles of a place (real servers)', () => {
  let jobs: JobsTestApp
  let ownerId: string
  const guest = () => jobs.clientFor(null)
  const ids: Record<string, string> = {}

  const feed = async (query: string, userId: string | null = null) => {
    const answer = await jobs.clientFor(userId).get(`/api/jobs?${query}`)
    expect(answer.status).toBe(200)
    return answer.body as { jobs: FeedPost[]; pagination?: { total: number } }
  }
  const titles = (answer: { jobs: FeedPost[] }) => answer.jobs.map((post) => post.title)
  const byTitle = (answer: { jobs: FeedPost[] }, title: string) =>
    answer.jobs.find((post) => post.title === title)!

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_distance')
    ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    // Oldest first, so the feed (newest first) lists them in reverse.
    const posts: Array<[string, string, boolean]> = [
      ['Geo Austin lawn', 'Austin, TX', true],
      ['Geo Round Rock fence', 'Round Rock, TX', true],
      ['Geo private piano', '4 Oak St, Round Rock, TX 78664', false],
      ['Geo San Antonio move', 'San Antonio, TX', true],
      ['Geo mill cleanup', 'Behind the old mill', true],
      ['Geo Georgetown paint', 'Georgetown, TX', true],
    ]
    for (const [title, where, displayLocation] of posts) {
      const created = await owner.post('/api/jobs', { title, where, displayLocation })
      expect(created.status).toBe(201)
      ids[title] = created.body._id
    }
    await waitFor(async () => (await feed('limit=50')).pagination?.total === posts.length, {
      timeoutMs: 60_000,
      what: 'the posts in the feed',
    })
  })
  afterAll(() => jobs.stop())

  it('keeps only posts within the distance, newest first, each with its distance', async () => {
    const within25 = await feed(`near=${encodeURIComponent('Austin, TX')}&within=25`)
    expect(titles(within25)).toEqual([
      'Geo private piano',
      'Geo Round Rock fence',
      'Geo Austin lawn',
    ])
    expect(within25.pagination!.total).toBe(3)
    expect(byTitle(within25, 'Geo Austin lawn').distanceMiles).toBe(0)
    expect(byTitle(within25, 'Geo Round Rock fence').distanceMiles).toBe(
      Math.round(milesBetween(AUSTIN, ROUND_ROCK) * 10) / 10,
    )
    expect(byTitle(within25, 'Geo Round Rock fence').distanceRounded).toBeUndefined()

    expect(titles(await feed('near=Austin%2C%20TX&within=10'))).toEqual(['Geo Austin lawn'])
    // Georgetown (25.6 mi) joins at 50; San Antonio (73.6 mi) and the unknown place never do.
    expect(titles(await feed('near=Austin%2C%20TX&within=50&sort=asc'))).toEqual([
      'Geo Austin lawn',
      'Geo Round Rock fence',
      'Geo private piano',
      'Geo Georgetown paint',
    ])
    // A ZIP code is a place too; near alone means within 50 miles.
    expect(titles(await feed('near=78701'))).toHaveLength(4)
  })

  it('sorts nearest first', async () => {
    const nearest = await feed('near=Austin%2C%20TX&within=50&sort=distance&limit=2')
    expect(titles(nearest)).toEqual(['Geo Austin lawn', 'Geo private piano'])
    expect(nearest.pagination!.total).toBe(4)
    const next = await feed('near=Austin%2C%20TX&within=50&sort=distance&limit=2&page=2')
    expect(titles(next)).toEqual(['Geo Round Rock fence', 'Geo Georgetown paint'])
  })

  it('places a private location by its town only, and rounds its distance', async () => {
    const fromAustin = byTitle(await feed('near=Austin%2C%20TX&within=25'), 'Geo private piano')
    expect(fromAustin.location).toBeNull()
    expect(fromAustin.distanceRounded).toBe(true)
    // From Round Rock's own point (17.1 mi, rounded to 15), not the ZIP's (17.7 mi, 20).
    expect(fromAustin.distanceMiles).toBe(roundedMiles(milesBetween(AUSTIN, ROUND_ROCK)))
    expect(fromAustin.distanceMiles).not.toBe(roundedMiles(milesBetween(AUSTIN, ZIP_78664)))

    // Asked from the post's exact ZIP, a stranger still gets the town's distance, never 0.
    const stranger = jobs.newUserId()
    const fromZip = await feed('near=78664&within=5', stranger)
    const piano = byTitle(fromZip, 'Geo private piano')
    expect(piano.distanceMiles).toBe(roundedMiles(milesBetween(ZIP_78664, ROUND_ROCK)))
    expect(piano.distanceMiles).toBeGreaterThanOrEqual(1)
    expect(piano.location).toBeNull()
    // Nothing finer than the town in the answer: no coordinates, no ZIP, no street.
    const text = JSON.stringify(fromZip.jobs)
    expect(text).not.toMatch(/78664|Oak St|lat|lon"/)

    // The owner sees the location, and the exact distance from it.
    const own = byTitle(await feed('near=78664&within=5', ownerId), 'Geo private piano')
    expect(own.location).toBe('4 Oak St, Round Rock, TX 78664')
    expect(own.distanceMiles).toBe(0)
    expect(own.distanceRounded).toBeUndefined()
  })

  it('searches within the distance too', async () => {
    const found = await feed('search=geo&limit=20&near=Austin%2C%20TX&within=25')
    expect(titles(found).sort()).toEqual(
      ['Geo Austin lawn', 'Geo Round Rock fence', 'Geo private piano'].sort(),
    )
    const nearest = await feed('search=geo&limit=20&near=Austin%2C%20TX&within=50&sort=distance')
    expect(titles(nearest)[0]).toBe('Geo Austin lawn')
    expect(nearest.jobs.map((post) => post.distanceMiles)).toEqual(
      [...nearest.jobs.map((post) => post.distanceMiles!)].sort((a, b) => a - b),
    )
  })

  it('answers as before without near: no distances, unknown places included', async () => {
    const all = await feed('limit=50')
    expect(all.jobs).toHaveLength(6)
    expect(all.jobs.every((post) => post.distanceMiles === undefined)).toBe(true)
    expect(byTitle(all, 'Geo mill cleanup').location).toBe('Behind the old mill')
  })

  it('a 400 that says why for an unknown place or a bad distance', async () => {
    const unknown = await guest().get('/api/jobs?near=Behind%20the%20old%20mill')
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual({
      code: 'UNKNOWN_PLACE',
      message:
        'We don\'t know the place "Behind the old mill". Try a town and state, like "Austin, TX", or a US ZIP code.',
    })
    for (const query of [
      'near=Austin&within=7',
      'within=25',
      'sort=distance',
      'near=Austin&sort=distance&after=',
    ]) {
      const answer = await guest().get(`/api/jobs?${query}`)
      expect({ query, status: answer.status, code: answer.body.code }).toEqual({
        query,
        status: 400,
        code: 'INVALID_QUERY',
      })
    }
  })

  it('follows a changed location, and resolves posts stored before distances on load', async () => {
    const owner = jobs.clientFor(ownerId)
    const moved = await owner.put(`/api/jobs/${ids['Geo Round Rock fence']}`, {
      location: 'San Antonio, TX',
    })
    expect(moved.status).toBe(200)
    await waitFor(
      async () =>
        !titles(await feed('near=Austin%2C%20TX&within=25')).includes('Geo Round Rock fence'),
      { timeoutMs: 60_000, what: 'the moved post out of the circle' },
    )
    const stored = await jobs.db
      .collection<PostDocument>(POSTS_COLLECTION)
      .findOne({ _id: ids['Geo Round Rock fence']! })
    expect(stored?.geo).toMatchObject({ city: 'San Antonio', region: 'TX' })

    // Written before locations were resolved: no geo field at all.
    const fields = { title: 'Geo old Pflugerville post', infos: '', expirationDate: null }
    const old: PostDocument = {
      _id: new ObjectId().toHexString(),
      userID: ownerId,
      location: 'Pflugerville, TX',
      jobStartEnd: '',
      salary: '',
      paymentType: [],
      contact: '',
      displayLocation: true,
      displayContact: true,
      jobPicture: null,
      isOnline: true,
      takenDown: false,
      createdAt: new Date(),
      updatedAt: new Date(),
      ...fields,
      ...derivedFields(fields),
    }
    await jobs.db.collection<PostDocument>(POSTS_COLLECTION).insertOne(old)
    await jobs.app.feedSync.load()
    const answer = await feed('near=Austin%2C%20TX&within=25')
    expect(byTitle(answer, 'Geo old Pflugerville post').distanceMiles).toBe(
      Math.round(milesBetween(AUSTIN, at('Pflugerville, TX')) * 10) / 10,
    )
  })
})
