import { exactMiles, milesBetween, resolvePlace, type LatLon } from '@marketplace/geo'
import { waitFor } from '@marketplace/service-kit/testing'
import { PROFILES_COLLECTION, type ProfileDocument } from '../profiles/profile-document'
import { startPeopleTestApp, workerProfileBody, type PeopleTestApp } from '../test/people-test-app'

interface Card {
  _id: string
  name: string
  location: string
  distanceMiles?: number
}

function at(text: string): LatLon {
  const place = resolvePlace(text)
  if (!place) throw new Error(`test place ${text} unknown`)
  return place
}

// From Austin (GeoNames): Pflugerville 14.0 mi, Round Rock 17.1, Georgetown 25.6, San Antonio 73.6.
const AUSTIN = at('Austin, TX')

describe('people feed and search within N miles of a place (real servers)', () => {
  let people: PeopleTestApp
  const ids: Record<string, string> = {}

  async function worker(first: string, location: string) {
    const userId = await people.registerUser(first, 'Geo', { dateOfBirth: '1990-06-15' })
    const saved = await people
      .clientFor(userId)
      .put(
        `/api/users/${userId}/worker-profile`,
        workerProfileBody({ title: 'Gardener', location }),
      )
    expect(saved.status).toBe(200)
    ids[first] = userId
  }

  const feed = async (query: string) => {
    const answer = await people.clientFor(null).get(`/api/people?${query}`)
    expect(answer.status).toBe(200)
    return answer.body as { people: Card[]; pagination?: { total: number } }
  }
  const names = (answer: { people: Card[] }) => answer.people.map((card) => card.name)

  beforeAll(async () => {
    people = await startPeopleTestApp('people_distance')
    await worker('Ana', 'Austin, TX')
    await worker('Rio', 'Round Rock, TX')
    await worker('Sam', 'San Antonio, TX')
    await worker('Una', 'Somewhere quiet')
    await worker('Gus', 'Georgetown TX')
    await waitFor(async () => (await feed('limit=50')).pagination?.total === 5, {
      timeoutMs: 60_000,
      what: 'the workers in the feed',
    })
  })
  afterAll(async () => {
    await people?.stop()
  })

  it('keeps workers within the distance, newest first, with the exact distance', async () => {
    const within25 = await feed('near=Austin%2C%20TX&within=25')
    expect(names(within25)).toEqual(['Rio Geo', 'Ana Geo'])
    expect(within25.pagination!.total).toBe(2)
    expect(within25.people.map((card) => card.distanceMiles)).toEqual([
      exactMiles(milesBetween(AUSTIN, at('Round Rock, TX'))),
      0,
    ])
    expect(names(await feed('near=Austin%2C%20TX&within=50'))).toEqual([
      'Gus Geo',
      'Rio Geo',
      'Ana Geo',
    ])
  })

  it('sorts nearest first, and searches within the distance', async () => {
    expect(names(await feed('near=78701&within=50&sort=distance'))).toEqual([
      'Ana Geo',
      'Rio Geo',
      'Gus Geo',
    ])
    const found = await feed('search=geo&near=Austin%2C%20TX&within=25&sort=distance')
    expect(names(found)).toEqual(['Ana Geo', 'Rio Geo'])
    expect(found.pagination).toBeUndefined()
  })

  it('answers as before without near, and a 400 for a place it does not know', async () => {
    const all = await feed('limit=50')
    expect(all.people).toHaveLength(5)
    expect(all.people.every((card) => card.distanceMiles === undefined)).toBe(true)
    const unknown = await people.clientFor(null).get('/api/people?near=Somewhere%20quiet')
    expect(unknown.status).toBe(400)
    expect(unknown.body.code).toBe('UNKNOWN_PLACE')
    expect((await people.clientFor(null).get('/api/people?within=10')).status).toBe(400)
  })

  it('keeps a home place for the Within control, in the self view only', async () => {
    const userId = ids.Ana!
    const self = people.clientFor(userId)
    const set = await self.put(`/api/users/${userId}/home-place`, { homePlace: ' Round Rock, TX ' })
    expect(set.status).toBe(200)
    expect(set.body.homePlace).toBe('Round Rock, TX')
    expect((await self.get(`/api/users/${userId}`)).body.homePlace).toBe('Round Rock, TX')
    // Nobody else sees it.
    const other = await people.clientFor(ids.Rio!).get(`/api/users/${userId}`)
    expect(other.status).toBe(200)
    expect(other.text).not.toMatch(/homePlace|Round Rock/)

    const unknown = await self.put(`/api/users/${userId}/home-place`, { homePlace: 'Nowhere-ville' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.code).toBe('UNKNOWN_PLACE')
    expect((await self.get(`/api/users/${userId}`)).body.homePlace).toBe('Round Rock, TX')
    const foreign = await people
      .clientFor(ids.Rio!)
      .put(`/api/users/${userId}/home-place`, { homePlace: 'Austin, TX' })
    expect(foreign.status).toBe(403)

    const cleared = await self.put(`/api/users/${userId}/home-place`, { homePlace: '' })
    expect(cleared.status).toBe(200)
    expect(cleared.body.homePlace).toBeUndefined()
    expect(
      (await people.clientFor(null).put(`/api/users/${userId}/home-place`, { homePlace: '' }))
        .status,
    ).toBe(401)
  })

  it('stores the resolved place with the profile, null for an unknown one', async () => {
    const profiles = people.db.collection<ProfileDocument>(PROFILES_COLLECTION)
    expect((await profiles.findOne({ _id: ids.Gus! }))?.worker?.geo).toMatchObject({
      city: 'Georgetown',
      region: 'TX',
    })
    expect((await profiles.findOne({ _id: ids.Una! }))?.worker?.geo).toBeNull()
  })
})
