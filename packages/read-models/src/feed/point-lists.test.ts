import { milesBetween } from '@marketplace/geo'
import { PointLists, pointKeyOf } from './point-lists'

// Feed order for these tests: the greater row number first (newest first).
const before = (a: number, b: number) => a > b

const austin = { lat: 30.2672, lon: -97.7431 }
const roundRock = { lat: 30.5083, lon: -97.6789 }
const dallas = { lat: 32.7767, lon: -96.797 }

describe('rows grouped by their point', () => {
  it('answers each point near enough once, with its rows in feed order and its distance', () => {
    const lists = new PointLists()
    for (const slot of [1, 5, 3]) lists.insert(slot, austin, before)
    lists.insert(2, roundRock, before)
    lists.insert(4, dallas, before)

    const found = lists.within(austin, 25).sort((a, b) => a.miles - b.miles)

    expect(found.map(({ rows }) => [...rows])).toEqual([[5, 3, 1], [2]])
    expect(found[0]!.miles).toBe(0)
    expect(found[1]!.miles).toBeCloseTo(milesBetween(austin, roundRock), 6)
    expect(lists.within(austin, 5).map(({ rows }) => [...rows])).toEqual([[5, 3, 1]])
    expect(lists.within(austin, 200).length).toBe(3)
  })

  it('gives a point’s own list, not a copy, and forgets a point whose last row goes', () => {
    const lists = new PointLists()
    lists.insert(1, austin, before)
    lists.insert(2, austin, before)
    const first = lists.within(austin, 1)[0]!.rows
    expect(lists.within(austin, 1)[0]!.rows.buffer).toBe(first.buffer)

    lists.remove(2, austin, before)
    expect(lists.within(austin, 1).map(({ rows }) => [...rows])).toEqual([[1]])
    lists.remove(1, austin, before)
    expect(lists.within(austin, 1)).toEqual([])
    // A row that was never there changes nothing.
    lists.remove(7, dallas, before)
    expect(lists.within(dallas, 1)).toEqual([])
  })

  it('keeps a load’s pushed rows in feed order once sorted', () => {
    const lists = new PointLists()
    for (const slot of [3, 9, 1, 6]) lists.push(slot, roundRock)
    lists.sort(before)
    lists.trim()
    expect(lists.within(roundRock, 1).map(({ rows }) => [...rows])).toEqual([[9, 6, 3, 1]])
    lists.clear()
    expect(lists.within(roundRock, 1)).toEqual([])
  })

  it('tells points a metre apart as one and points further apart as two', () => {
    expect(pointKeyOf(austin)).toBe(pointKeyOf({ lat: austin.lat + 0.000001, lon: austin.lon }))
    expect(pointKeyOf(austin)).not.toBe(pointKeyOf({ lat: austin.lat + 0.0001, lon: austin.lon }))
    expect(pointKeyOf({ lat: 90, lon: 180 })).toBeLessThan(Number.MAX_SAFE_INTEGER)
  })
})
