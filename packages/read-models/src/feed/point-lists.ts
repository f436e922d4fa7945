import { cellKey, cellKeysWithin, milesBetween, type LatLon } from '@marketplace/geo'
import { SlotList } from './slot-list'

/** A point and its rows, in feed order. */
interface PointEntry {
  lat: number
  lon: number
  rows: SlotList
}

/** A point within the distance asked about: its rows (feed order) and their distance. */
export interface PointWithin {
  rows: Int32Array
  miles: number
}

/**
 * One number per point, to a hundred-thousandth of a degree (about a metre): rows whose points
 * differ by less share an entry. Latitude steps (18,000,001 of them) times the longitude's
 * range stays below 2^53.
 */
const STEPS = 100_000
const LON_STEPS = 360 * STEPS + 1
export const pointKeyOf = (point: LatLon): number =>
  Math.round((point.lat + 90) * STEPS) * LON_STEPS + Math.round((point.lon + 180) * STEPS)

/**
 * A feed's rows that have a point, grouped by the point itself, and the points by the geo
 * package's grid cell. Places resolve to a town's or a ZIP code's centre, so many rows share
 * one point (every post of a town, every private post placed at its town): "within N miles"
 * then measures each point once rather than each row, and since a point's rows are kept in
 * feed order, an answer that is one point (one town) is that list as it is, with no copy, and
 * an answer of several is a merge of a few lists. The cost follows the points near the place,
 * not the rows (docs/distance.md).
 */
export class PointLists {
  private points = new Map<number, PointEntry>()
  /** Each cell's point keys. */
  private cells = new Map<number, Set<number>>()

  /** Appends without keeping the order (a load; `sort` afterwards if needed). */
  push(slot: number, point: LatLon): void {
    this.entryOf(point).rows.push(slot)
  }

  /** Inserts in feed order (`before`: true when `a` comes before `b`). */
  insert(slot: number, point: LatLon, before: (a: number, b: number) => boolean): void {
    this.entryOf(point).rows.insert(slot, before)
  }

  /** Takes a row out, found by the point it was added with; a point left empty goes. */
  remove(slot: number, point: LatLon, before: (a: number, b: number) => boolean): void {
    const key = pointKeyOf(point)
    const entry = this.points.get(key)
    if (!entry?.rows.remove(slot, before) || entry.rows.length > 0) return
    this.points.delete(key)
    const cell = cellKey(entry)
    const keys = this.cells.get(cell)
    keys?.delete(key)
    if (keys?.size === 0) this.cells.delete(cell)
  }

  sort(before: (a: number, b: number) => boolean): void {
    for (const entry of this.points.values()) entry.rows.sort(before)
  }

  trim(): void {
    for (const entry of this.points.values()) entry.rows.trim()
  }

  clear(): void {
    this.points.clear()
    this.cells.clear()
  }

  /**
   * The points within `miles` of `from` that have rows, each with its distance: the cells the
   * circle's bounding box touches, then each of their points measured once.
   */
  within(from: LatLon, miles: number): PointWithin[] {
    // Cheap cut before the haversine: a degree of latitude is never less than 68.7 miles.
    const latSlack = miles / 68.7
    const found: PointWithin[] = []
    for (const cell of cellKeysWithin(from, miles)) {
      for (const key of this.cells.get(cell) ?? []) {
        const entry = this.points.get(key)!
        if (entry.rows.length === 0 || Math.abs(entry.lat - from.lat) > latSlack) continue
        const distance = milesBetween(from, entry)
        if (distance <= miles) found.push({ rows: entry.rows.view(), miles: distance })
      }
    }
    return found
  }

  private entryOf(point: LatLon): PointEntry {
    const key = pointKeyOf(point)
    let entry = this.points.get(key)
    if (!entry) {
      entry = { lat: point.lat, lon: point.lon, rows: new SlotList() }
      this.points.set(key, entry)
      const cell = cellKey(point)
      let keys = this.cells.get(cell)
      if (!keys) this.cells.set(cell, (keys = new Set()))
      keys.add(key)
    }
    return entry
  }
}
