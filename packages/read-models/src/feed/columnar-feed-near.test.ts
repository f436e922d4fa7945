import { milesBetween } from '@marketplace/geo'
import { ColumnarFeed, NO_POINT, type ColumnarSchema, type FeedRow } from './columnar-feed'

/** Rows with a colour (a filter) and a point (latitude, longitude as numbers). */
const schema: ColumnarSchema = {
  shared: ['color'],
  numbers: ['lat', 'lon'],
  filterValues: (row) => [['color', row.shared[0]!]],
  searchWords: (row) => row.text.split(' ').filter(Boolean),
  point: { lat: 0, lon: 1 },
  version: 'near-test-1',
}

const T0 = Date.UTC(2026, 0, 1)
// Known places (GeoNames): Austin 0 mi, Round Rock ~17 mi, Pflugerville ~14 mi, Georgetown ~26 mi,
// San Antonio ~73 mi, from Austin.
const AUSTIN = { lat: 30.26715, lon: -97.74306 }
const PLACES: Record<string, { lat: number; lon: number }> = {
  austin: AUSTIN,
  roundRock: { lat: 30.50826, lon: -97.6789 },
  pflugerville: { lat: 30.43937, lon: -97.62 },
  georgetown: { lat: 30.63269, lon: -97.67723 },
  sanAntonio: { lat: 29.42412, lon: -98.49363 },
}

const row = (n: number, place: string | null, color = 'red', text = 'words'): FeedRow => {
  const point = place ? PLACES[place]! : { lat: NO_POINT, lon: 0 }
  return {
    id: `id${String(n).padStart(4, '0')}`,
    createdAt: T0 + n * 60_000,
    expiresAt: null,
    shared: [color],
    numbers: [point.lat, point.lon],
    text,
  }
}

function fill(feed: ColumnarFeed, rows: FeedRow[]) {
  for (const item of rows) feed.apply(item.id, item)
}

const ROWS = [
  row(1, 'austin'),
  row(2, 'roundRock'),
  row(3, 'sanAntonio'),
  row(4, null),
  row(5, 'georgetown', 'blue'),
  row(6, 'pflugerville'),
  row(7, 'austin', 'blue'),
]

describe('ColumnarFeed near a point', () => {
  const near = (miles: number, order: 'feed' | 'distance' = 'feed') => ({ ...AUSTIN, miles, order })
  const ids = (feed: ColumnarFeed, page: { slots: number[] }) =>
    page.slots.map((slot) => feed.idOf(slot))

  it('keeps only rows within the distance, newest first, with their distances', () => {
    const feed = new ColumnarFeed(schema)
    fill(feed, ROWS)
    const page = feed.page({ filters: {}, page: 1, pageSize: 10, sort: 'desc', near: near(25) })
    expect(ids(feed, page)).toEqual(['id0007', 'id0006', 'id0002', 'id0001'])
    expect(page.total).toBe(4)
    expect(page.distances).toHaveLength(4)
    expect(page.distances![0]).toBe(0)
    expect(page.distances![2]).toBeCloseTo(milesBetween(AUSTIN, PLACES.roundRock!), 6)
    const ten = feed.page({ filters: {}, page: 1, pageSize: 10, sort: 'desc', near: near(10) })
    expect(ids(feed, ten)).toEqual(['id0007', 'id0001'])
    const fifty = feed.page({ filters: {}, page: 1, pageSize: 10, sort: 'asc', near: near(50) })
    expect(ids(feed, fifty)).toEqual(['id0001', 'id0002', 'id0005', 'id0006', 'id0007'])
  })

  it('sorts nearest first, the feed order among equals', () => {
    const feed = new ColumnarFeed(schema)
    fill(feed, ROWS)
    const page = feed.page({
      filters: {},
      page: 1,
      pageSize: 10,
      sort: 'asc',
      near: near(100, 'distance'),
    })
    expect(ids(feed, page)).toEqual(['id0007', 'id0001', 'id0006', 'id0002', 'id0005', 'id0003'])
    expect([...page.distances!]).toEqual([...page.distances!].sort((a, b) => a - b))
    const second = feed.page({
      filters: {},
      page: 2,
      pageSize: 4,
      sort: 'desc',
      near: near(100, 'distance'),
    })
    expect(ids(feed, second)).toEqual(['id0005', 'id0003'])
    expect(second.start).toBe(4)
  })

  it('combines with filters and hidden rows', () => {
    const feed = new ColumnarFeed(schema)
    fill(feed, ROWS)
    const blue = feed.page({
      filters: { color: 'blue' },
      page: 1,
      pageSize: 10,
      sort: 'desc',
      near: near(50),
    })
    expect(ids(feed, blue)).toEqual(['id0007', 'id0005'])
    const hidden = feed.page({
      filters: {},
      page: 1,
      pageSize: 10,
      sort: 'desc',
      near: near(25),
      hide: { ids: ['id0006'] },
    })
    expect(ids(feed, hidden)).toEqual(['id0007', 'id0002', 'id0001'])
    expect(hidden.total).toBe(3)
    expect(hidden.distances![1]).toBeCloseTo(milesBetween(AUSTIN, PLACES.roundRock!), 6)
    const none = feed.page({
      filters: { color: 'green' },
      page: 1,
      pageSize: 10,
      sort: 'desc',
      near: near(50),
    })
    expect(none).toEqual({ slots: [], total: 0, start: 0, distances: [] })
  })

  it('follows changes: a moved, removed or new row', () => {
    const feed = new ColumnarFeed(schema)
    fill(feed, ROWS)
    const moved = row(1, 'sanAntonio')
    feed.apply(moved.id, moved)
    feed.apply('id0006', null)
    fill(feed, [row(8, 'pflugerville')])
    const page = feed.page({ filters: {}, page: 1, pageSize: 10, sort: 'desc', near: near(25) })
    expect(ids(feed, page)).toEqual(['id0008', 'id0007', 'id0002'])
    expect(feed.distanceOf(feed.slotOf('id0004')!, AUSTIN)).toBeUndefined()
  })

  it('keeps points through a load and a snapshot', () => {
    const loaded = new ColumnarFeed(schema)
    loaded.load(ROWS)
    const query = { filters: {}, page: 1, pageSize: 10, sort: 'desc' as const, near: near(25) }
    expect(ids(loaded, loaded.page(query))).toEqual(['id0007', 'id0006', 'id0002', 'id0001'])
    const copy = new ColumnarFeed(schema)
    const loader = copy.snapshotLoader()
    for (const record of loaded.snapshotRecords().records)
      loader.accept(JSON.parse(JSON.stringify(record)) as unknown)
    loader.finish()
    expect(ids(copy, copy.page(query))).toEqual(['id0007', 'id0006', 'id0002', 'id0001'])
    expect(copy.pointOf(copy.slotOf('id0004')!)).toBeUndefined()
  })
})
