import { ColumnarFeed, type ColumnarSchema, type FeedRow } from './columnar-feed'

/** Rows with an owner (shared column 0), a color filter and one search word each. */
const schema: ColumnarSchema = {
  shared: ['owner', 'color'],
  numbers: [],
  filterValues: (row) => [['color', row.shared[1]!]],
  searchWords: () => ['job'],
  version: 'hide-test-1',
}
const T0 = Date.UTC(2026, 0, 1)
const row = (n: number, owner: string, color = 'red'): FeedRow => ({
  id: n.toString(16).padStart(24, '0'),
  createdAt: T0 + n * 1000,
  expiresAt: null,
  shared: [owner, color],
  numbers: [],
  text: '',
})

/**
 * A reader's hidden rows (the people they blocked or were blocked by, docs/blocking.md) leave
 * the page, the total and the cursor's count alike, and search skips them, so a reader pages
 * through exactly what they may see; anyone else reads the whole feed.
 */
describe('ColumnarFeed: rows hidden from one reader', () => {
  const feed = new ColumnarFeed(schema)
  // Twelve rows, newest first 12..1; owner "b" has rows 3, 6, 9, 12.
  for (let n = 1; n <= 12; n += 1) {
    feed.apply(row(n, 'x').id, row(n, n % 3 === 0 ? 'b' : 'a', n % 2 ? 'red' : 'blue'))
  }
  const hideB = { shared: { column: 0, values: ['b', 'nobody-of-this-feed'] } }
  const ids = (...ns: number[]) => ns.map((n) => row(n, 'x').id)
  const idsOf = (slots: number[]) => slots.map((slot) => feed.idOf(slot))

  it('leaves the hidden rows out of offset pages and of the total', () => {
    const first = feed.page({ filters: {}, page: 1, pageSize: 5, sort: 'desc', hide: hideB })
    expect(idsOf(first.slots)).toEqual(ids(11, 10, 8, 7, 5))
    expect(first.total).toBe(8)
    const second = feed.page({ filters: {}, page: 2, pageSize: 5, sort: 'desc', hide: hideB })
    expect(idsOf(second.slots)).toEqual(ids(4, 2, 1))
    const asc = feed.page({ filters: {}, page: 1, pageSize: 3, sort: 'asc', hide: hideB })
    expect(idsOf(asc.slots)).toEqual(ids(1, 2, 4))
    // Another reader sees all twelve.
    expect(feed.page({ filters: {}, page: 1, pageSize: 50, sort: 'desc' }).total).toBe(12)
  })

  it('applies with filters and with cursor pages', () => {
    const red = feed.page({
      filters: { color: 'red' },
      page: 1,
      pageSize: 10,
      sort: 'desc',
      hide: hideB,
    })
    expect(idsOf(red.slots)).toEqual(ids(11, 7, 5, 1))
    const seen: string[] = []
    let after: ReturnType<ColumnarFeed['positionOf']> | undefined
    for (let round = 0; round < 10; round += 1) {
      const { slots, total, start } = feed.page({
        filters: {},
        page: 1,
        pageSize: 3,
        sort: 'desc',
        after,
        hide: hideB,
      })
      seen.push(...idsOf(slots))
      if (slots.length === 0 || start + slots.length >= total) break
      after = feed.positionOf(slots[slots.length - 1]!)
    }
    expect(seen).toEqual(ids(11, 10, 8, 7, 5, 4, 2, 1))
  })

  it('skips the hidden rows in search and still fills the limit', () => {
    expect(idsOf(feed.search(['job'], 4, hideB))).toEqual(ids(11, 10, 8, 7))
    expect(idsOf(feed.search(['job'], 4))).toEqual(ids(12, 11, 10, 9))
  })

  it('hides rows by id as well (a worker feed is keyed by the worker), ignoring ids it does not hold', () => {
    const hidden = { ids: [row(12, 'x').id, row(7, 'x').id, 'f'.repeat(24)] }
    const page = feed.page({ filters: {}, page: 1, pageSize: 4, sort: 'desc', hide: hidden })
    expect(idsOf(page.slots)).toEqual(ids(11, 10, 9, 8))
    expect(page.total).toBe(10)
    const blue = feed.page({
      filters: { color: 'blue' },
      page: 1,
      pageSize: 10,
      sort: 'asc',
      hide: hidden,
    })
    expect(idsOf(blue.slots)).toEqual(ids(2, 4, 6, 8, 10))
    expect(idsOf(feed.search(['job'], 3, hidden))).toEqual(ids(11, 10, 9))
  })
})
