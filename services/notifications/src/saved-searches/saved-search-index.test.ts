import { savedSearchCriteria } from '@marketplace/contracts/marketplace'
import { createPlaces } from './places'
import { createSavedSearchIndex, type MatchablePost } from './saved-search-index'

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
})
