import { savedSearchCriteria, savedSearchQueryOf } from '@marketplace/contracts/marketplace'
import { initialFeedState } from '@/features/feed/feed-slice'
import { feedUrlQuery, feedUrlStateOf, isNewFeed } from '@/features/feed/feed-url-state'

describe("the home page's URL query", () => {
  it('reads every field a saved search writes', () => {
    expect(
      feedUrlStateOf(
        '?feed=job&category=Moving&location=Austin&payment=Cash&contact=Phone&near=Austin%2C+TX&within=25&search=piano',
      ),
    ).toEqual({
      feedType: 'job',
      category: 'Moving',
      location: 'Austin',
      payment: 'Cash',
      contact: 'Phone',
      near: 'Austin, TX',
      within: 25,
      sort: 'desc',
      search: 'piano',
      page: 1,
    })
    expect(feedUrlStateOf('feed=worker&sort=distance&near=78701&within=5&page=3')).toMatchObject({
      feedType: 'worker',
      near: '78701',
      within: 5,
      sort: 'distance',
      page: 3,
    })
  })

  it('reads the query the notifications service normalizes a saved search to', () => {
    const query = savedSearchQueryOf(
      savedSearchCriteria('feed=job&category=Moving&near=Round Rock, TX&search=Piano Bench'),
    )
    expect(feedUrlStateOf(query)).toMatchObject({
      category: 'Moving',
      near: 'Round Rock, TX',
      within: 25,
      search: 'piano bench',
    })
  })

  it('takes the default of each field whose value is unknown or bad, and keeps the others', () => {
    expect(
      feedUrlStateOf(
        'feed=robots&category=Nonsense&payment=Bitcoin&contact=Pigeon&within=7&sort=sideways&page=-2&near=Austin%2C+TX',
      ),
    ).toEqual({ ...pickUrl(initialFeedState), near: 'Austin, TX' })
    expect(feedUrlStateOf('page=1.5&within=abc&sort=distance')).toEqual(pickUrl(initialFeedState))
    expect(feedUrlStateOf(`location=${'x'.repeat(101)}&category=all`)).toEqual(
      pickUrl(initialFeedState),
    )
    expect(feedUrlStateOf('%%%&&=')).toEqual(pickUrl(initialFeedState))
    // Case aside, a known value is read as the feed spells it.
    expect(feedUrlStateOf('category=moving&payment=cash app&feed=WORKER')).toMatchObject({
      feedType: 'worker',
      category: 'Moving',
      payment: 'Cash App',
    })
  })

  it('writes nothing for the default feed, and what differs from it otherwise', () => {
    expect(feedUrlQuery(initialFeedState)).toBe('')
    expect(feedUrlQuery({ ...initialFeedState, within: 10 })).toBe('')
    expect(feedUrlQuery({ ...initialFeedState, feedType: 'worker' })).toBe('feed=worker')
    const linked = {
      ...initialFeedState,
      category: 'Moving',
      near: 'Austin, TX',
      within: 25,
      sort: 'distance' as const,
      page: 2,
    }
    expect(feedUrlQuery(linked)).toBe(
      'feed=job&category=Moving&near=Austin%2C+TX&within=25&sort=distance&page=2',
    )
    // Read back, it is the same feed.
    expect(feedUrlStateOf(feedUrlQuery(linked))).toEqual(pickUrl(linked))
  })

  it('tells a new feed (type or category) from a refined one', () => {
    const from = feedUrlStateOf('')
    expect(isNewFeed(from, { ...from, category: 'Moving' })).toBe(true)
    expect(isNewFeed(from, { ...from, feedType: 'worker' })).toBe(true)
    expect(isNewFeed(from, { ...from, payment: 'Cash', near: 'Austin, TX' })).toBe(false)
  })
})

function pickUrl(feed: typeof initialFeedState) {
  const { feedType, category, location, payment, contact, near, within, sort, search, page } = feed
  return { feedType, category, location, payment, contact, near, within, sort, search, page }
}
