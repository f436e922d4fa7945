import { ColumnarFeed, type ColumnarSchema, type FeedRow } from './columnar-feed'

const schema: ColumnarSchema = {
  shared: ['color'],
  numbers: [],
  filterValues: (row) => [['color', row.shared[0]!]],
  searchWords: () => [],
  version: 'cursor-test-1',
}
const T0 = Date.UTC(2026, 0, 1)
/** Hex ids as the services issue them; rows 5 and 6 share a creation time (the id decides). */
const row = (n: number, color = 'red'): FeedRow => ({
  id: n.toString(16).padStart(24, '0'),
  createdAt: T0 + (n === 6 ? 5 : n) * 1000,
  expiresAt: null,
  shared: [color],
  numbers: [],
  text: '',
})

/** Every page by cursor, as ids, from the start, `between` run after each page. */
function readByCursor(
  feed: ColumnarFeed,
  sort: 'asc' | 'desc',
  pageSize: number,
  filters: Record<string, string> = {},
  between: (round: number) => void = () => {},
): string[] {
  const seen: string[] = []
  let after: ReturnType<ColumnarFeed['positionOf']> | undefined
  for (let round = 0; round < 100; round += 1) {
    const { slots, total, start } = feed.page({ filters, page: 1, pageSize, sort, after })
    seen.push(...slots.map((slot) => feed.idOf(slot)))
    if (slots.length === 0 || start + slots.length >= total) break
    after = feed.positionOf(slots[slots.length - 1]!)
    between(round)
  }
  return seen
}

describe('ColumnarFeed: pages by cursor', () => {
  const ids = (...ns: number[]) => ns.map((n) => row(n).id)

  it('reads every row once, in order, both ways, ties broken by id; filters apply', () => {
    const feed = new ColumnarFeed(schema)
    for (let n = 1; n <= 10; n += 1) feed.apply(row(n).id, row(n, n % 2 ? 'red' : 'blue'))
    expect(readByCursor(feed, 'desc', 3)).toEqual(ids(10, 9, 8, 7, 6, 5, 4, 3, 2, 1))
    expect(readByCursor(feed, 'asc', 4)).toEqual(ids(1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
    expect(readByCursor(feed, 'desc', 2, { color: 'red' })).toEqual(ids(9, 7, 5, 3, 1))
  })

  it('neither repeats nor skips when rows are added or removed between pages', () => {
    const feed = new ColumnarFeed(schema)
    for (let n = 1; n <= 12; n += 1) feed.apply(row(n).id, row(n))
    const seen = readByCursor(feed, 'desc', 3, {}, (round) => {
      // Newer rows arrive (an offset page would shift and repeat), the cursor's own row goes.
      feed.apply(row(100 + round).id, row(100 + round))
      if (round === 0) feed.apply(row(10).id, null)
    })
    expect(seen).toEqual(ids(12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1))
  })

  it('starts where the page says, and ends empty after the last row', () => {
    const feed = new ColumnarFeed(schema)
    for (let n = 1; n <= 5; n += 1) feed.apply(row(n).id, row(n))
    const page = feed.page({
      filters: {},
      page: 1,
      pageSize: 2,
      sort: 'desc',
      after: feed.positionOf(
        feed.page({ filters: {}, page: 2, pageSize: 2, sort: 'desc' }).slots[1]!,
      ),
    })
    expect(page.start).toBe(4)
    expect(page.slots.map((slot) => feed.idOf(slot))).toEqual(ids(1))
    const last = feed.positionOf(page.slots[0]!)
    expect(feed.page({ filters: {}, page: 1, pageSize: 2, sort: 'desc', after: last })).toEqual({
      slots: [],
      total: 5,
      start: 5,
    })
  })
})
