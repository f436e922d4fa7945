import { savedSearchCriteria } from '@marketplace/contracts/marketplace'
import { createPlaces } from './places'
import {
  createSavedSearchIndex,
  postMatches,
  preparePost,
  type MatchablePost,
} from './saved-search-index'

const post = (changes: Partial<MatchablePost> = {}): MatchablePost => ({
  postId: 'p1',
  ownerId: 'owner',
  title: 'Move a piano downstairs',
  infos: 'Two flights of stairs',
  location: 'Austin, TX',
  category: 'Moving',
  paymentType: ['Cash', 'Venmo'],
  contact: 'Phone',
  ...changes,
})

/** The index with the real gazetteer, and searches put in by their URL query. */
function indexOf(searches: Record<string, string>, paused: string[] = []) {
  const index = createSavedSearchIndex({ places: createPlaces() })
  for (const [id, query] of Object.entries(searches))
    index.put({
      _id: id,
      userId: `u-${id}`,
      criteria: savedSearchCriteria(query),
      paused: paused.includes(id),
    })
  return {
    index,
    matched: (p: MatchablePost) =>
      index
        .match(p)
        .map((entry) => entry._id)
        .sort(),
  }
}

describe('the saved search index', () => {
  it('matches filter by filter as the feed reads them', () => {
    const { matched } = indexOf({
      all: 'feed=job',
      moving: 'category=moving',
      gardening: 'category=Gardening',
      piano: 'search=pian',
      pianoHarp: 'search=piano harp',
      cash: 'payment=Cash',
      check: 'payment=Check',
      phone: 'contact=phone',
      austin: 'location=austin',
      dallas: 'location=Dallas',
      workers: 'feed=worker',
    })
    expect(matched(post())).toEqual(['all', 'austin', 'cash', 'moving', 'phone', 'piano'])
    expect(matched(post({ location: null, contact: null, paymentType: [] }))).toEqual([
      'all',
      'moving',
      'piano',
    ])
  })

  it('matches within the miles of a place with the gazetteer: Round Rock is near Austin, Dallas is not', () => {
    const { matched } = indexOf({
      near25: 'near=Austin, TX&within=25',
      near5: 'near=Austin, TX&within=5',
      nearWords: 'near=Austin, TX&within=25&search=piano',
      unknownPlace: 'near=Nowhereville Qqq&within=50',
    })
    expect(matched(post({ location: 'Round Rock, TX' }))).toEqual(['near25', 'nearWords'])
    expect(matched(post({ location: 'Austin, TX 78701' }))).toEqual([
      'near25',
      'near5',
      'nearWords',
    ])
    expect(matched(post({ location: 'Dallas, TX' }))).toEqual([])
    // A post whose owner hid its location is placed nowhere.
    expect(matched(post({ location: null }))).toEqual([])
    // A place the gazetteer does not know is matched as words of the location.
    expect(matched(post({ location: 'Nowhereville Qqq' }))).toEqual(['unknownPlace'])
  })

  it("leaves out paused searches and the post owner's own, and follows changes and removals", () => {
    const { index, matched } = indexOf({ a: 'search=piano', b: 'category=Moving' }, ['b'])
    expect(matched(post())).toEqual(['a'])
    expect(matched(post({ ownerId: 'u-a' }))).toEqual([])
    index.put({
      _id: 'a',
      userId: 'u-a',
      criteria: savedSearchCriteria('search=harp'),
      paused: false,
    })
    index.put({
      _id: 'b',
      userId: 'u-b',
      criteria: savedSearchCriteria('category=Moving'),
      paused: false,
    })
    expect(matched(post())).toEqual(['b'])
    index.remove('b')
    expect(matched(post())).toEqual([])
    expect(index.size()).toBe(1)
  })
  it('finds exactly what checking every search with postMatches finds (2,000 mixed searches, 200 posts)', () => {
    // A seeded generator: the same searches and posts on every run.
    let state = 7
    const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!
    const categories = ['Moving', 'Cleaning', 'Gardening', 'Errands']
    const words = ['piano', 'pia', 'fence', 'garage', 'garden', 'boxes', 'move', 'mo', 'haul']
    const places = ['Austin, TX', 'Round Rock, TX', 'Dallas, TX', 'Denver, CO', 'Nowhereville Qqq']
    const payments = ['Cash', 'Check', 'Venmo']
    const gazetteer = createPlaces()
    const index = createSavedSearchIndex({ places: gazetteer })
    const searches = Array.from({ length: 2000 }, (_, i) => {
      const params = new URLSearchParams({ feed: random() < 0.95 ? 'job' : 'worker' })
      if (random() < 0.5) params.set('category', pick(categories))
      if (random() < 0.5)
        params.set(
          'search',
          Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(words)).join(' '),
        )
      if (random() < 0.3) params.set('payment', pick(payments))
      if (random() < 0.1) params.set('contact', pick(['Phone', 'Email']))
      if (random() < 0.1) params.set('location', pick(['austin', 'round rock', 'dallas']))
      if (random() < 0.4) {
        params.set('near', pick(places))
        params.set('within', String(pick([5, 10, 25, 50])))
      }
      return {
        _id: `s${i}`,
        userId: `u${i % 300}`,
        criteria: savedSearchCriteria(params.toString()),
        paused: random() < 0.05,
      }
    })
    for (const search of searches) index.put(search)
    let matches = 0
    for (let i = 0; i < 200; i += 1) {
      const p = post({
        ownerId: `u${i % 300}`,
        title: `${pick(words)} ${pick(words)}`,
        infos: pick(words),
        location: random() < 0.1 ? null : pick(places),
        category: pick(categories),
        paymentType: [pick(payments)],
        contact: random() < 0.5 ? null : pick(['Phone', 'Email']),
      })
      const prepared = preparePost(p)
      const expected = searches
        .filter(
          (search) =>
            !search.paused &&
            search.userId !== p.ownerId &&
            postMatches(search.criteria, prepared, gazetteer.distanceOf),
        )
        .map((search) => search._id)
        .sort()
      const found = index
        .match(p)
        .map((entry) => entry._id)
        .sort()
      expect(found).toEqual(expected)
      matches += found.length
    }
    // Many matches, of every kind of filter: not an agreement on empty answers.
    expect(matches).toBeGreaterThan(10_000)
  })
})
