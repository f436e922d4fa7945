import { boundingBox, type LatLon } from './distance'

/**
 * A fixed latitude/longitude grid for in-memory indexes: a point falls in one cell, and a "within N miles"
 * question reads only the cells its bounding box touches. Half a degree (about 35 miles north to south)
 * keeps the largest choice (50 miles) to a handful of cells, and a cell key is a small integer.
 */
export const DEFAULT_CELL_DEGREES = 0.5

export function cellKey(point: LatLon, cellDegrees = DEFAULT_CELL_DEGREES): number {
  const columns = Math.ceil(360 / cellDegrees)
  const row = Math.min(Math.floor((point.lat + 90) / cellDegrees), Math.ceil(180 / cellDegrees) - 1)
  const column = Math.min(Math.floor((point.lon + 180) / cellDegrees), columns - 1)
  return row * columns + column
}

/** Every cell key that may hold a point within `miles` of `center`. */
export function cellKeysWithin(center: LatLon, miles: number, cellDegrees = DEFAULT_CELL_DEGREES): number[] {
  const box = boundingBox(center, miles)
  const columns = Math.ceil(360 / cellDegrees)
  const rows = Math.ceil(180 / cellDegrees)
  const firstRow = Math.max(0, Math.floor((box.minLat + 90) / cellDegrees))
  const lastRow = Math.min(rows - 1, Math.floor((box.maxLat + 90) / cellDegrees))
  const firstColumn = Math.max(0, Math.floor((box.minLon + 180) / cellDegrees))
  const lastColumn = Math.min(columns - 1, Math.floor((box.maxLon + 180) / cellDegrees))
  const keys: number[] = []
  for (let row = firstRow; row <= lastRow; row++) {
    for (let column = firstColumn; column <= lastColumn; column++) keys.push(row * columns + column)
  }
  return keys
}
