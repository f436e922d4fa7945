import { savedSearchCriteria } from '@marketplace/contracts/marketplace'
import { initialFeedState } from '@/features/feed/feed-slice'
import { feedSearchQuery, suggestedSearchName } from '@/features/feed/feed-search-query'

describe('the feed state as a saved search query', () => {
  it('keeps the feed type, the category and the filters that are not All', () => {
    const feed = { ...initialFeedState, category: 'Moving', payment: 'Cash', location: ' Austin ' }
    expect(feedSearchQuery(feed)).toBe('feed=job&category=Moving&location=Austin&payment=Cash')
    expect(feedSearchQuery({ ...initialFeedState, feedType: 'worker' })).toBe('feed=worker')
    // What the notifications service reads from it (the contracts' parser).
    expect(savedSearchCriteria(feedSearchQuery(feed))).toMatchObject({
      feedType: 'job',
      category: 'Moving',
      location: 'Austin',
      payment: 'Cash',
      contact: null,
    })
  })

  it("keeps the Within control's place and distance, and no distance without a place", () => {
    const near = { ...initialFeedState, near: 'Austin, TX', within: 10 }
    expect(feedSearchQuery(near)).toBe('feed=job&near=Austin%2C+TX&within=10')
    expect(savedSearchCriteria(feedSearchQuery(near))).toMatchObject({
      near: 'Austin, TX',
      withinMiles: 10,
    })
    // The initial state holds a distance (25) but no place: any distance, so none is kept.
    expect(feedSearchQuery(initialFeedState)).toBe('feed=job')
  })

  it('suggests a name from the category and the place', () => {
    expect(
      suggestedSearchName({ ...initialFeedState, category: 'Moving', location: 'Austin' }),
    ).toBe('Moving in Austin')
    expect(suggestedSearchName(initialFeedState)).toBe('Jobs')
    expect(suggestedSearchName({ ...initialFeedState, feedType: 'worker' })).toBe('Workers')
  })
})
