import { SlotList } from './slot-list'

// Orders used by the feed: by a value per slot (newest first), ties by slot number.
const values = new Map<number, number>()
const newestFirst = (a: number, b: number) =>
  values.get(a)! > values.get(b)! || (values.get(a) === values.get(b) && a < b)

function listOf(slots: number[]): SlotList {
  const list = new SlotList()
  for (const slot of slots) list.insert(slot, newestFirst)
  return list
}

beforeEach(() => {
  values.clear()
  for (let slot = 0; slot < 200; slot += 1) values.set(slot, (slot * 37) % 101)
})

describe('SlotList', () => {
  it('keeps inserted slots in the order given, whatever order they come in', () => {
    const slots = [5, 90, 17, 3, 150, 42, 8]
    const list = listOf(slots)
    const expected = [...slots].sort((a, b) => (newestFirst(a, b) ? -1 : 1))
    expect([...list.view()]).toEqual(expected)
    expect(list.isSorted(newestFirst)).toBe(true)
  })

  it('inserts a slot once: a second insert of the same slot changes nothing', () => {
    const list = listOf([4, 9, 4, 9, 4])
    expect(list.length).toBe(2)
  })

  it('removes a slot by its place in the order, and answers whether it was there', () => {
    const list = listOf([1, 2, 3, 4, 5])
    expect(list.remove(3, newestFirst)).toBe(true)
    expect(list.remove(3, newestFirst)).toBe(false)
    expect(list.remove(77, newestFirst)).toBe(false)
    expect([...list.view()].sort((a, b) => a - b)).toEqual([1, 2, 4, 5])
    expect(list.isSorted(newestFirst)).toBe(true)
  })

  it('grows past its first capacity without losing an entry', () => {
    const list = new SlotList(2)
    for (let slot = 0; slot < 1000; slot += 1) list.push(slot)
    expect(list.length).toBe(1000)
    expect(list.items.length).toBeGreaterThanOrEqual(1000)
    expect([...list.view()]).toEqual(Array.from({ length: 1000 }, (_, i) => i))
  })

  it('sorts a bulk load pushed out of order, and says whether a list is sorted', () => {
    const list = new SlotList()
    const slots = [12, 7, 99, 0, 54, 31]
    for (const slot of slots) list.push(slot)
    expect(list.isSorted(newestFirst)).toBe(false)
    list.sort(newestFirst)
    expect(list.isSorted(newestFirst)).toBe(true)
    expect([...list.view()]).toEqual([...slots].sort((a, b) => (newestFirst(a, b) ? -1 : 1)))
  })

  it('trims the room a load left, and gives room back when it shrinks to a quarter', () => {
    const list = new SlotList()
    for (let slot = 0; slot < 200; slot += 1) list.push(slot)
    list.sort(newestFirst)
    list.trim()
    expect(list.items.length).toBe(200)
    for (let slot = 0; slot < 160; slot += 1) expect(list.remove(slot, newestFirst)).toBe(true)
    expect(list.length).toBe(40)
    expect(list.items.length).toBeLessThan(200)
    expect(list.items.length).toBeGreaterThanOrEqual(40)
    expect([...list.view()].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => 160 + i),
    )
  })

  it('gives a view that is the entries, not the spare room', () => {
    const list = new SlotList(64)
    list.push(3)
    list.push(1)
    expect(list.view()).toHaveLength(2)
    expect(list.view()[1]).toBe(1)
  })
})
