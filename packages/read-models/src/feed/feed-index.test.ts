import { FeedIndex, type FeedSchema } from './feed-index'

interface Item {
  _id: string
  createdAt: Date
  color: string
  size: string
  words: string[]
}

const schema: FeedSchema<Item> = {
  isLive: () => true,
  filterValues: (item) => [
    ['color', item.color],
    ['size', item.size],
  ],
  searchWords: (item) => item.words,
}

const item = (n: number, color: string, size: string): Item => ({
  _id: `id${String(n).padStart(4, '0')}`,
  createdAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000),
  color,
  size,
  words: [color, size],
})

describe('FeedIndex: pages with several filters', () => {
  const page = (index: FeedIndex<Item>, page: number, sort: 'asc' | 'desc' = 'desc') =>
    index.page({ filters: { color: 'red', size: 'L' }, page, pageSize: 2, sort })

  it('answers the items matching every filter, in feed order, both ways, page by page', () => {
    const index = new FeedIndex(schema)
    index.load([
      item(1, 'red', 'L'),
      item(2, 'red', 'S'),
      item(3, 'blue', 'L'),
      item(4, 'red', 'L'),
      item(5, 'red', 'L'),
    ])
    expect(page(index, 1)).toEqual({ items: [item(5, 'red', 'L'), item(4, 'red', 'L')], total: 3 })
    expect(page(index, 2)).toEqual({ items: [item(1, 'red', 'L')], total: 3 })
    expect(page(index, 1, 'asc').items.map((i) => i._id)).toEqual(['id0001', 'id0004'])
  })

  it('answers a change at once, though the same filters were asked before it', () => {
    const index = new FeedIndex(schema)
    index.load([item(1, 'red', 'L'), item(2, 'red', 'S')])
    expect(page(index, 1).total).toBe(1)
    index.apply('id0003', item(3, 'red', 'L'))
    expect(page(index, 1).items.map((i) => i._id)).toEqual(['id0003', 'id0001'])
    index.apply('id0001', { ...item(1, 'red', 'S') })
    expect(page(index, 1)).toEqual({ items: [item(3, 'red', 'L')], total: 1 })
    index.apply('id0003', null)
    expect(page(index, 1)).toEqual({ items: [], total: 0 })
  })

  it('lists every live item in feed order for a snapshot', () => {
    const index = new FeedIndex(schema)
    index.load([item(2, 'red', 'S'), item(1, 'red', 'L'), item(3, 'blue', 'L')])
    expect(index.items().map((i) => i._id)).toEqual(['id0003', 'id0002', 'id0001'])
  })
})
