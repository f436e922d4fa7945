import { ColumnarFeed, type ColumnarSchema, type FeedRow } from './columnar-feed'

/** Rows with a colour and a size (shared columns), a number and words as their text. */
const schema: ColumnarSchema = {
  shared: ['color', 'size'],
  numbers: ['weight'],
  filterValues: (row) => [
    ['color', row.shared[0]!],
    ['size', row.shared[1]!],
  ],
  searchWords: (row) => [...new Set(row.text.split(' ').filter((word) => word !== ''))],
  version: 'test-1',
}

const T0 = Date.UTC(2026, 0, 1)
const row = (
  n: number,
  color: string,
  size: string,
  text = `${color} ${size}`,
  extra: Partial<FeedRow> = {},
): FeedRow => ({
  id: `id${String(n).padStart(4, '0')}`,
  createdAt: T0 + n * 60_000,
  expiresAt: null,
  shared: [color, size],
  numbers: [n * 1.5],
  text,
  ...extra,
})

const idsOf = (feed: ColumnarFeed, slots: readonly number[]) =>
  slots.map((slot) => feed.row(slot).id)
const pageIds = (
  feed: ColumnarFeed,
  filters: Record<string, string | undefined> = {},
  page = 1,
  pageSize = 50,
  sort: 'asc' | 'desc' = 'desc',
) => idsOf(feed, feed.page({ filters, page, pageSize, sort }).slots)

/** Snapshot records as they travel: through JSON, as the store writes and reads them. */
const throughJson = (records: Iterable<unknown>) =>
  [...records].map((record) => JSON.parse(JSON.stringify(record)) as unknown)

describe('ColumnarFeed', () => {
  it('pages newest first or oldest first, the greater id first among equal times, with the total', () => {
    const feed = new ColumnarFeed(schema)
    for (let n = 1; n <= 30; n += 1) feed.apply(row(n, 'red', 'L').id, row(n, 'red', 'L'))
    const same = [31, 32, 33].map((n) => row(n, 'red', 'L', 'tie', { createdAt: T0 + 99 * 60_000 }))
    for (const item of same) feed.apply(item.id, item)
    expect(feed.size).toBe(33)
    expect(pageIds(feed, {}, 1, 5)).toEqual(['id0033', 'id0032', 'id0031', 'id0030', 'id0029'])
    expect(pageIds(feed, {}, 7, 5)).toEqual(['id0003', 'id0002', 'id0001'])
    expect(pageIds(feed, {}, 1, 3, 'asc')).toEqual(['id0001', 'id0002', 'id0003'])
    expect(feed.page({ filters: {}, page: 9, pageSize: 5, sort: 'desc' })).toEqual({
      slots: [],
      total: 33,
      start: 33,
    })
  })

  it('gives a row back as it was applied, values shared or not', () => {
    const feed = new ColumnarFeed(schema)
    const item = row(7, 'blue', 'M', 'a text of its own', { expiresAt: T0 + 10 ** 12 })
    feed.apply(item.id, item)
    expect(feed.get(item.id)).toEqual(item)
    expect(feed.get('missing')).toBeUndefined()
  })

  it('combines filters; the total counts only rows matching all of them; a change empties the cache', () => {
    const feed = new ColumnarFeed(schema)
    const items = [row(1, 'red', 'L'), row(2, 'red', 'S'), row(3, 'blue', 'L'), row(4, 'red', 'L')]
    for (const item of items) feed.apply(item.id, item)
    expect(pageIds(feed, { color: 'red', size: 'L' })).toEqual(['id0004', 'id0001'])
    expect(
      feed.page({ filters: { color: 'red', size: 'L' }, page: 1, pageSize: 1, sort: 'asc' }),
    ).toMatchObject({ total: 2 })
    expect(pageIds(feed, { color: 'red', size: 'L' }, 1, 1, 'asc')).toEqual(['id0001'])
    expect(pageIds(feed, { color: 'red', size: undefined })).toEqual(['id0004', 'id0002', 'id0001'])
    expect(pageIds(feed, { color: 'green' })).toEqual([])
    // The intersection was cached; an update must not be answered from it.
    feed.apply('id0002', row(2, 'red', 'L'))
    expect(pageIds(feed, { color: 'red', size: 'L' })).toEqual(['id0004', 'id0002', 'id0001'])
    expect(feed.countsBy('size', ['L', 'S', 'XL'])).toEqual({ L: 4, S: 0, XL: 0 })
  })

  it('moves an updated row between filter lists and words, and removes a deleted one everywhere', () => {
    const feed = new ColumnarFeed(schema)
    feed.apply('id0001', row(1, 'red', 'L', 'sofa moving'))
    feed.apply('id0002', row(2, 'red', 'L', 'sofa'))
    feed.apply('id0001', row(1, 'blue', 'L', 'piano moving'))
    expect(pageIds(feed, { color: 'red' })).toEqual(['id0002'])
    expect(pageIds(feed, { color: 'blue' })).toEqual(['id0001'])
    expect(idsOf(feed, feed.search(['sofa'], 10))).toEqual(['id0002'])
    expect(idsOf(feed, feed.search(['piano'], 10))).toEqual(['id0001'])
    feed.apply('id0001', null)
    expect(feed.size).toBe(1)
    expect(feed.search(['piano'], 10)).toEqual([])
    expect(feed.search(['moving'], 10)).toEqual([])
    expect(pageIds(feed, { color: 'blue' })).toEqual([])
    expect(feed.countsBy('color', ['red', 'blue'])).toEqual({ red: 1, blue: 0 })
    // A slot freed is taken again by the next row, with nothing of the old one.
    feed.apply('id0009', row(9, 'green', 'S', 'lamp'))
    expect(feed.get('id0009')).toEqual(row(9, 'green', 'S', 'lamp'))
    expect(feed.search(['piano'], 10)).toEqual([])
    feed.apply('id0404', null)
    expect(feed.size).toBe(2)
  })

  it('searches words and prefixes, all terms required, each row once, at most limit, in feed order', () => {
    const feed = new ColumnarFeed(schema)
    const items = [
      row(1, 'red', 'L', 'move moving movers'),
      row(2, 'red', 'L', 'mover needed'),
      row(3, 'red', 'L', 'dog walking'),
      row(4, 'red', 'L', 'walk my dog'),
      row(5, 'red', 'L', 'paint fence walking distance'),
    ]
    for (const item of items) feed.apply(item.id, item)
    expect(idsOf(feed, feed.search(['mov'], 10))).toEqual(['id0002', 'id0001'])
    expect(idsOf(feed, feed.search(['walk'], 10))).toEqual(['id0005', 'id0004', 'id0003'])
    expect(idsOf(feed, feed.search(['dog', 'walk'], 10))).toEqual(['id0004', 'id0003'])
    expect(idsOf(feed, feed.search(['walk'], 2))).toEqual(['id0005', 'id0004'])
    expect(feed.search(['walk', 'zebra'], 10)).toEqual([])
    expect(feed.search([], 10)).toEqual([])
  })

  it('keeps expired rows out and lets a row leave at its expiry', () => {
    let now = T0 + 1000 * 60_000
    const feed = new ColumnarFeed(schema, () => new Date(now))
    feed.apply('id0001', row(1, 'red', 'L', 'gone', { expiresAt: now - 1 }))
    feed.apply('id0002', row(2, 'red', 'L', 'tonight', { expiresAt: now + 60_000 }))
    feed.apply('id0003', row(3, 'red', 'L', 'forever'))
    expect(pageIds(feed)).toEqual(['id0003', 'id0002'])
    now += 60_000
    expect(pageIds(feed)).toEqual(['id0003'])
    expect(feed.search(['tonight'], 10)).toEqual([])
    expect(feed.countsBy('color', ['red'])).toEqual({ red: 1 })
  })

  it('loads rows in any order (a database scan) to the same feed as applying them one by one', () => {
    const items = Array.from({ length: 200 }, (_, n) =>
      row(n, ['red', 'blue', 'green'][n % 3]!, ['S', 'L'][n % 2]!, `word${n % 7} item${n}`),
    )
    const shuffled = [...items].sort(
      (a, b) =>
        ((a.text.length * 31 + a.createdAt) % 17) - ((b.text.length * 31 + b.createdAt) % 17),
    )
    const loaded = new ColumnarFeed(schema)
    expect(loaded.load(shuffled)).toBe(200)
    const applied = new ColumnarFeed(schema)
    for (const item of items) applied.apply(item.id, item)
    expect(loaded.rows()).toEqual(applied.rows())
    expect(pageIds(loaded, { color: 'red', size: 'L' }, 2, 7)).toEqual(
      pageIds(applied, { color: 'red', size: 'L' }, 2, 7),
    )
    expect(idsOf(loaded, loaded.search(['word3', 'item1'], 50))).toEqual(
      idsOf(applied, applied.search(['word3', 'item1'], 50)),
    )
  })

  it('reads its own snapshot back to the same rows, pages and search, leaving other records to the caller', () => {
    const source = new ColumnarFeed(schema)
    for (let n = 0; n < 10_000; n += 1) {
      const item = row(n, `c${n % 5}`, `s${n % 3}`, `common w${n % 50} unique${n}`)
      source.apply(item.id, item)
    }
    for (let n = 0; n < 10_000; n += 7) source.apply(row(n, 'x', 'y').id, null)
    const { count, records } = source.snapshotRecords()
    expect(count).toBe(source.size)
    const copy = new ColumnarFeed(schema)
    const loader = copy.snapshotLoader()
    for (const record of [...throughJson(records), { a: ['service', 'record'] }]) {
      if (!loader.accept(record)) expect(record).toEqual({ a: ['service', 'record'] })
    }
    expect(loader.finish()).toBe(count)
    expect(copy.rows()).toEqual(source.rows())
    expect(pageIds(copy, { color: 'c1', size: 's2' }, 3, 12)).toEqual(
      pageIds(source, { color: 'c1', size: 's2' }, 3, 12),
    )
    expect(idsOf(copy, copy.search(['w1', 'comm'], 40))).toEqual(
      idsOf(source, source.search(['w1', 'comm'], 40)),
    )
    const unique999 = [9999, 9998, 9997, 9995, 9994, 9993, 9992, 9991, 9990, 999] // 9996: deleted
    expect(idsOf(copy, copy.search(['unique999'], 40))).toEqual(
      unique999.map((n) => row(n, '', '').id),
    )
    // Changes after the load keep every list right.
    copy.apply('id0001', null)
    copy.apply('id0002', row(2, 'c9', 's9', 'changed'))
    expect(pageIds(copy, { color: 'c9' })).toEqual(['id0002'])
    expect(copy.search(['unique2'], 100).map((slot) => copy.row(slot).id)).not.toContain('id0002')
    expect(copy.size).toBe(source.size - 1)
  })

  it('keeps the first of an id a snapshot names twice', () => {
    const source = new ColumnarFeed(schema)
    for (let n = 0; n < 20; n += 1) source.apply(`id${n}`, row(n, 'red', 'L', `w${n}`))
    const records = throughJson(source.snapshotRecords().records)
    const rows = records.filter((record) => (record as { k: string }).k === 'rows')
    const copy = new ColumnarFeed(schema)
    const loader = copy.snapshotLoader()
    for (const record of [...records, ...rows]) loader.accept(record)
    loader.finish()
    expect(copy.rows()).toEqual(source.rows())
    expect(idsOf(copy, copy.search(['w1'], 100))).toEqual(idsOf(source, source.search(['w1'], 100)))
  })

  it("computes filters and words again from a snapshot of another version's schema", () => {
    const source = new ColumnarFeed(schema)
    for (let n = 0; n < 50; n += 1) source.apply(`id${n}`, row(n, 'red', 'L', `w${n}`))
    const other: ColumnarSchema = {
      ...schema,
      // The new version also answers to a word of the colour, which the old snapshot lacks.
      searchWords: (item) => [...schema.searchWords(item), `colour-${item.shared[0]}`],
      version: 'test-2',
    }
    const copy = new ColumnarFeed(other)
    const loader = copy.snapshotLoader()
    for (const record of throughJson(source.snapshotRecords().records)) loader.accept(record)
    loader.finish()
    expect(copy.search(['colour-red'], 100)).toHaveLength(50)
    expect(pageIds(copy, { color: 'red' }, 1, 100)).toHaveLength(50)
  })

  it('matches a plain model through a long run of random inserts, updates and deletes', () => {
    let seed = 7
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
    const feed = new ColumnarFeed(schema)
    const model = new Map<string, FeedRow>()
    for (let step = 0; step < 5000; step += 1) {
      const n = Math.floor(random() * 400)
      const id = row(n, '', '').id
      if (random() < 0.25) {
        feed.apply(id, null)
        model.delete(id)
      } else {
        const item = row(
          n,
          pick(['red', 'blue']),
          pick(['S', 'L']),
          `${pick(['ab', 'abc', 'b'])} ${pick(['x', 'y'])}`,
          {
            createdAt: T0 + Math.floor(random() * 50) * 1000,
          },
        )
        feed.apply(id, item)
        model.set(id, item)
      }
    }
    const order = (a: FeedRow, b: FeedRow) =>
      a.createdAt !== b.createdAt ? b.createdAt - a.createdAt : a.id < b.id ? 1 : -1
    const expected = [...model.values()].sort(order)
    expect(feed.rows()).toEqual(expected)
    const redL = expected.filter((item) => item.shared[0] === 'red' && item.shared[1] === 'L')
    expect(pageIds(feed, { color: 'red', size: 'L' }, 1, 1000)).toEqual(redL.map((item) => item.id))
    const ab = expected.filter((item) => item.text.split(' ').some((word) => word.startsWith('ab')))
    expect(idsOf(feed, feed.search(['ab'], 1000))).toEqual(ab.map((item) => item.id))
    const abY = ab.filter((item) => item.text.endsWith(' y'))
    expect(idsOf(feed, feed.search(['y', 'ab'], 1000))).toEqual(abY.map((item) => item.id))
  })
})

describe('ColumnarFeed: pages with several filters', () => {
  const page = (feed: ColumnarFeed, number: number, sort: 'asc' | 'desc' = 'desc') => {
    const { slots, total } = feed.page({
      filters: { color: 'red', size: 'L' },
      page: number,
      pageSize: 2,
      sort,
    })
    return { rows: slots.map((slot) => feed.row(slot)), total }
  }

  it('answers the rows matching every filter, in feed order, both ways, page by page', () => {
    const feed = new ColumnarFeed(schema)
    feed.load([
      row(1, 'red', 'L'),
      row(2, 'red', 'S'),
      row(3, 'blue', 'L'),
      row(4, 'red', 'L'),
      row(5, 'red', 'L'),
    ])
    expect(page(feed, 1)).toEqual({ rows: [row(5, 'red', 'L'), row(4, 'red', 'L')], total: 3 })
    expect(page(feed, 2)).toEqual({ rows: [row(1, 'red', 'L')], total: 3 })
    expect(page(feed, 1, 'asc').rows.map((item) => item.id)).toEqual(['id0001', 'id0004'])
  })

  it('answers a change at once, though the same filters were asked before it', () => {
    const feed = new ColumnarFeed(schema)
    feed.load([row(1, 'red', 'L'), row(2, 'red', 'S')])
    expect(page(feed, 1).total).toBe(1)
    feed.apply('id0003', row(3, 'red', 'L'))
    expect(page(feed, 1).rows.map((item) => item.id)).toEqual(['id0003', 'id0001'])
    feed.apply('id0001', row(1, 'red', 'S'))
    expect(page(feed, 1)).toEqual({ rows: [row(3, 'red', 'L')], total: 1 })
    feed.apply('id0003', null)
    expect(page(feed, 1)).toEqual({ rows: [], total: 0 })
  })

  it('lists every live row in feed order', () => {
    const feed = new ColumnarFeed(schema)
    feed.load([row(2, 'red', 'S'), row(1, 'red', 'L'), row(3, 'blue', 'L')])
    expect(feed.rows().map((item) => item.id)).toEqual(['id0003', 'id0002', 'id0001'])
  })
})
