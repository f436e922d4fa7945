import type { PostDocument } from '../posts/post-document'
import { derivedFields } from '../posts/post-input'
import { queryTerms } from '@marketplace/contracts/marketplace'
import { feedOrder } from '@marketplace/read-models/feed'
import { isLive } from '../posts/post-document'
import { toPostView } from '../posts/post-view'
import { FeedIndex } from './feed-index'
import { postRow } from './post-row'

let sequence = 0
function post(overrides: Partial<PostDocument> & { title: string }): PostDocument {
  sequence += 1
  const base = {
    _id: sequence.toString(16).padStart(24, '0'),
    userID: 'owner',
    location: 'Boston MA',
    jobStartEnd: '',
    salary: '',
    paymentType: ['Cash'],
    contact: 'Email',
    infos: '',
    displayLocation: true,
    displayContact: true,
    jobPicture: null,
    isOnline: true,
    takenDown: false,
    expirationDate: null,
    createdAt: new Date(Date.UTC(2026, 0, 1) + sequence * 1000),
    updatedAt: new Date(),
    ...overrides,
  }
  return { ...derivedFields(base), ...base, ...overrides } as PostDocument
}

/** The titles of the posts at these rows, as a guest sees them. */
const ids = (index: FeedIndex, slots: readonly number[]) =>
  slots.map((slot) => index.post(slot).title)

describe('FeedIndex', () => {
  it('pages newest first, or oldest first with asc, with the total of matching posts', () => {
    const index = new FeedIndex()
    const posts = Array.from({ length: 30 }, (_, i) => post({ title: `Post ${i}` }))
    index.load(posts)
    const first = index.page({ page: 1, pageSize: 12, sort: 'desc' })
    expect(first.total).toBe(30)
    expect(ids(index, first.slots)).toEqual(
      posts
        .slice(-12)
        .reverse()
        .map((p) => p.title),
    )
    const last = index.page({ page: 3, pageSize: 12, sort: 'desc' })
    expect(ids(index, last.slots)).toEqual([
      'Post 5',
      'Post 4',
      'Post 3',
      'Post 2',
      'Post 1',
      'Post 0',
    ])
    const oldest = index.page({ page: 1, pageSize: 3, sort: 'asc' })
    expect(ids(index, oldest.slots)).toEqual(['Post 0', 'Post 1', 'Post 2'])
    expect(index.page({ page: 4, pageSize: 12, sort: 'desc' }).slots).toEqual([])
  })

  it('breaks a createdAt tie by _id, so pages never repeat or skip a post', () => {
    const index = new FeedIndex()
    const at = new Date(Date.UTC(2026, 1, 1))
    const same = Array.from({ length: 5 }, (_, i) => post({ title: `Same ${i}`, createdAt: at }))
    index.load([...same].reverse())
    const seen = [1, 2, 3].flatMap((page) =>
      ids(index, index.page({ page, pageSize: 2, sort: 'desc' }).slots),
    )
    expect(seen).toEqual(['Same 4', 'Same 3', 'Same 2', 'Same 1', 'Same 0'])
  })

  it('combines filters, and the total counts only posts matching all of them', () => {
    const index = new FeedIndex()
    index.load([
      post({ title: 'Help moving a sofa', location: 'Boston MA', paymentType: ['Cash', 'Zelle'] }),
      post({ title: 'Moving boxes downtown', location: 'Austin TX', paymentType: ['Cash'] }),
      post({ title: 'Movers wanted', location: 'Boston MA', paymentType: ['Venmo'] }),
      post({ title: 'Clean my kitchen', location: 'Boston MA', paymentType: ['Cash'] }),
    ])
    const result = index.page({
      category: 'Moving',
      location: 'Boston MA',
      payment: 'Cash',
      page: 1,
      pageSize: 12,
      sort: 'desc',
    })
    expect(ids(index, result.slots)).toEqual(['Help moving a sofa'])
    expect(result.total).toBe(1)
    expect(index.page({ category: 'Moving', page: 1, pageSize: 12, sort: 'desc' }).total).toBe(3)
    expect(index.page({ location: 'Nowhere', page: 1, pageSize: 12, sort: 'desc' }).total).toBe(0)
  })

  it('never matches a location filter on a post that hides it', () => {
    const index = new FeedIndex()
    index.load([
      post({
        title: 'Secret place',
        location: 'Miami FL',
        displayLocation: false,
        contact: 'Phone',
        displayContact: false,
      }),
      post({ title: 'Open place', location: 'Miami FL', contact: 'Phone' }),
    ])
    expect(
      ids(index, index.page({ location: 'Miami FL', page: 1, pageSize: 12, sort: 'desc' }).slots),
    ).toEqual(['Open place'])
    expect(index.page({ page: 1, pageSize: 12, sort: 'desc' }).total).toBe(2)
  })

  it('matches the contact filter on a public method only, never on a private one nor on the value', () => {
    const index = new FeedIndex()
    index.load([
      post({
        title: 'Private number',
        contact: 'WhatsApp',
        contactValue: '5551234567',
        displayContact: false,
      }),
      post({ title: 'Public number', contact: 'WhatsApp', contactValue: '5559876543' }),
      post({ title: 'By mail', contact: 'Email', contactValue: 'ava@example.com' }),
    ])
    expect(
      ids(index, index.page({ contact: 'WhatsApp', page: 1, pageSize: 12, sort: 'desc' }).slots),
    ).toEqual(['Public number'])
    expect(index.page({ contact: '5551234567', page: 1, pageSize: 12, sort: 'desc' }).total).toBe(0)
  })

  it('keeps offline, taken-down and expired posts out, and lets an expired post leave at its expiry', () => {
    let now = new Date(Date.UTC(2026, 5, 10, 12))
    const index = new FeedIndex(() => now)
    index.load([
      post({ title: 'Offline', isOnline: false }),
      post({ title: 'Taken down', takenDown: true }),
      post({ title: 'Expired', expiresAt: new Date(Date.UTC(2026, 5, 10)) }),
      post({ title: 'Expires tonight', expiresAt: new Date(Date.UTC(2026, 5, 11)) }),
      post({ title: 'Forever' }),
    ])
    expect(ids(index, index.page({ page: 1, pageSize: 12, sort: 'desc' }).slots)).toEqual([
      'Forever',
      'Expires tonight',
    ])
    now = new Date(Date.UTC(2026, 5, 11, 0, 0, 1))
    expect(ids(index, index.page({ page: 1, pageSize: 12, sort: 'desc' }).slots)).toEqual([
      'Forever',
    ])
    expect(index.search(['expires'], 10)).toEqual([])
    expect(index.categoryCounts().Uncategorized).toBe(1)
  })

  it('applies a change: moved between filter lists, removed when it goes offline or is deleted', () => {
    const index = new FeedIndex()
    const sofa = post({ title: 'Help moving a sofa', location: 'Boston MA' })
    index.load([sofa])
    index.apply(sofa._id, { ...sofa, location: 'Austin TX' })
    expect(index.page({ location: 'Boston MA', page: 1, pageSize: 12, sort: 'desc' }).total).toBe(0)
    expect(index.page({ location: 'Austin TX', page: 1, pageSize: 12, sort: 'desc' }).total).toBe(1)
    index.apply(sofa._id, { ...sofa, isOnline: false })
    expect(index.size).toBe(0)
    index.apply(sofa._id, sofa)
    expect(index.size).toBe(1)
    index.apply(sofa._id, null)
    expect(index.size).toBe(0)
    expect(index.search(['sofa'], 10)).toEqual([])
  })

  it('searches words and word prefixes of title and infos in any case and accent, all terms required', () => {
    const index = new FeedIndex()
    index.load([
      post({ title: 'Déménagement urgent', infos: 'Two flights of stairs' }),
      post({ title: 'Dog walking', infos: 'A friendly LABRADOR' }),
      post({ title: 'Walk my dog', infos: '' }),
      post({ title: 'Paint a fence', infos: 'walking distance from the station' }),
    ])
    expect(ids(index, index.search(queryTerms('DEMENAG'), 10))).toEqual(['Déménagement urgent'])
    expect(ids(index, index.search(queryTerms('labrador'), 10))).toEqual(['Dog walking'])
    expect(ids(index, index.search(queryTerms('walk'), 10))).toEqual([
      'Paint a fence',
      'Walk my dog',
      'Dog walking',
    ])
    expect(ids(index, index.search(queryTerms('  dog   WALK '), 10))).toEqual([
      'Walk my dog',
      'Dog walking',
    ])
    expect(ids(index, index.search(queryTerms('walk'), 2))).toEqual([
      'Paint a fence',
      'Walk my dog',
    ])
    expect(index.search(queryTerms('stair x'), 10)).toEqual([])
    expect(index.search(queryTerms('   '), 10)).toEqual([])
    // A regex-looking query is only words: no pattern is ever built from it.
    expect(index.search(queryTerms('.*'), 10)).toEqual([])
  })

  it('yields a post once when several of its words share the prefix', () => {
    const index = new FeedIndex()
    index.load([post({ title: 'Move moving movers' }), post({ title: 'Mover needed' })])
    expect(ids(index, index.search(['mov'], 10))).toEqual(['Mover needed', 'Move moving movers'])
  })

  it('counts per category equal the feed total for that category', () => {
    const index = new FeedIndex()
    const titles = [
      'Clean the garage',
      'Fix a leaking faucet',
      'Tutor my son in math',
      'Walk my dog daily',
      'Something odd',
      'Mow the lawn',
      'Deep clean',
    ]
    index.load(titles.map((title) => post({ title })))
    const counts = index.categoryCounts()
    for (const [category, count] of Object.entries(counts)) {
      expect(index.page({ category, page: 1, pageSize: 50, sort: 'desc' }).total).toBe(count)
    }
    expect(counts.Cleaning).toBe(2)
    expect(counts.Uncategorized).toBe(1)
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(index.size)
  })

  it("gives every post's guest view exactly as the whole post gives it, and holds no hidden value", () => {
    const index = new FeedIndex()
    const posts = [
      post({ title: 'Plain', contactValue: '' }),
      post({
        title: 'Hidden place and number',
        location: 'Secret Street 9',
        displayLocation: false,
        contact: 'Phone',
        contactValue: '5550001111',
        displayContact: false,
      }),
      post({ title: 'Public number', contact: 'WhatsApp', contactValue: '5552223333' }),
      post({
        title: 'Picture, expiry, edited',
        jobPicture: 'jobImages/owner/pic.png',
        expirationDate: '2099-12-31',
        expiresAt: new Date(Date.UTC(2100, 0, 1)),
        updatedAt: new Date(Date.UTC(2026, 6, 1)),
      }),
      post({ title: 'No payment, no contact', paymentType: [], contact: '' }),
      post({ title: 'Odd \u0000 text', infos: 'Ünïcödé 🙂 "quotes"', salary: '', jobStartEnd: '' }),
    ]
    index.load(posts)
    for (const original of posts) {
      const slot = index
        .page({ page: 1, pageSize: 50, sort: 'desc' })
        .slots.find((candidate) => index.idOf(candidate) === original._id)!
      expect(JSON.stringify(toPostView(index.post(slot), null))).toBe(
        JSON.stringify(toPostView(original, null)),
      )
    }
    const hidden = JSON.stringify(postRow(posts[1]!))
    expect(hidden).not.toContain('Secret Street')
    expect(hidden).not.toContain('5550001111')
  })

  it('answers pages, filters and searches as a scan of the posts would, through many changes', () => {
    // mulberry32: deterministic, a long period.
    let seed = 19
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
    }
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
    const words = ['move', 'moving', 'clean', 'cleaner', 'dog', 'walk', 'paint', 'fence', 'sofa']
    const now = new Date(Date.UTC(2026, 5, 1))
    const index = new FeedIndex(() => now)
    const stored = new Map<string, PostDocument>()
    for (let step = 0; step < 3000; step += 1) {
      const n = Math.floor(random() * 300)
      const id = n.toString(16).padStart(24, '0')
      if (random() < 0.2) {
        index.apply(id, null)
        stored.delete(id)
        continue
      }
      const title = `${pick(words)} ${pick(words)} ${n}`
      const infos = random() < 0.5 ? `${pick(words)} ${pick(['Ünïcödé', 'plain'])}` : ''
      const item = post({
        _id: id,
        title,
        infos,
        location: pick(['Boston MA', 'Austin TX', 'Denver CO']),
        displayLocation: random() < 0.8,
        paymentType: random() < 0.5 ? ['Cash'] : ['Cash', 'Zelle'],
        contact: pick(['Email', 'Phone', '']),
        isOnline: random() < 0.9,
        expiresAt: random() < 0.1 ? new Date(now.getTime() - 1000) : null,
        createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 100) * 1000),
      })
      index.apply(id, item)
      stored.set(id, item)
    }
    const live = [...stored.values()].filter((item) => isLive(item, now)).sort(feedOrder)
    const idsOf = (slots: readonly number[]) => slots.map((slot) => index.idOf(slot))
    const scan = (keep: (item: PostDocument) => boolean) =>
      live.filter(keep).map((item) => item._id)

    expect(index.size).toBe(live.length)
    expect(idsOf(index.page({ page: 2, pageSize: 12, sort: 'desc' }).slots)).toEqual(
      scan(() => true).slice(12, 24),
    )
    expect(idsOf(index.page({ page: 1, pageSize: 12, sort: 'asc' }).slots)).toEqual(
      scan(() => true)
        .reverse()
        .slice(0, 12),
    )
    const filtered = index.page({
      location: 'Boston MA',
      payment: 'Zelle',
      contact: 'Phone',
      page: 1,
      pageSize: 50,
      sort: 'desc',
    })
    const expected = scan(
      (item) =>
        item.displayLocation &&
        item.location === 'Boston MA' &&
        item.paymentType.includes('Zelle') &&
        item.contact === 'Phone',
    )
    expect(filtered.total).toBe(expected.length)
    expect(idsOf(filtered.slots)).toEqual(expected.slice(0, 50))
    for (const search of ['mov', 'clean walk', 'unicode', 'sofa 12', 'zzz']) {
      const terms = queryTerms(search)
      expect(idsOf(index.search(terms, 30))).toEqual(
        scan((item) =>
          terms.every((term) => item.searchWords.some((word) => word.startsWith(term))),
        ).slice(0, 30),
      )
    }
  })
})
