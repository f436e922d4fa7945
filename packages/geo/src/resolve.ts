import {
  cityTable,
  citiesNamed,
  countryByName,
  lookupTown,
  lookupZip,
  usStateCode,
} from './gazetteer'
import { normalizePlaceName } from './normalize'

/** A place the gazetteer knows. */
export interface Place {
  lat: number
  lon: number
  city: string
  /** The US state's USPS code; absent outside the US (GeoNames' divisions there are numbers, not names). */
  region?: string
  /** ISO 3166-1 alpha-2. */
  country: string
  /** `zip`: a US ZIP code's centre, finer than the town; `city`: the town's own point. */
  precision?: 'zip' | 'city'
}

/** Longer text is not a place name; it is kept as text. */
const MAX_PLACE_TEXT = 200
const ZIP_AT_END = /(?:^|[\s,])(\d{5})(?:-\d{4})?\s*(?:,?\s*(?:us|usa|united states))?\s*$/i

const NAME_ALIASES: Readonly<Record<string, string>> = {
  'new york': 'new york city',
  nyc: 'new york city',
}

interface Qualifiers {
  state?: string
  country?: string
}

/**
 * The place a free-text location names, or null when the gazetteer does not know it (the text then keeps
 * working as text, without a distance). Understands "Austin", "Austin, TX", "Austin TX 78701", "78701",
 * "Round Rock, Texas", "12 Main St, Austin, TX", "Paris, France", "Lyon, FR". When a name is ambiguous and
 * nothing narrows it, the most populous place of that name wins ("Paris" is Paris, France).
 */
export function resolvePlace(text: string): Place | null {
  if (typeof text !== 'string') return null
  const trimmed = text.trim()
  if (!trimmed || trimmed.length > MAX_PLACE_TEXT) return null

  const zipMatch = ZIP_AT_END.exec(trimmed)
  if (zipMatch?.[1]) {
    const zip = lookupZip(zipMatch[1])
    if (zip)
      return {
        lat: zip.lat,
        lon: zip.lon,
        city: zip.city,
        region: zip.state,
        country: 'US',
        precision: 'zip',
      }
  }
  const withoutZip = zipMatch ? trimmed.slice(0, zipMatch.index) : trimmed
  const parts = withoutZip
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter(Boolean)
  if (parts.length === 0) return null

  // "Austin TX" or "Round Rock Texas": the last words of a single part may be the qualifier.
  if (parts.length === 1) {
    const single = parts[0] as string
    const found = resolveNamed([single], {})
    if (found) return found
    const words = single.split(/\s+/)
    for (let cut = words.length - 1; cut >= 1; cut--) {
      const qualifiers = readQualifiers([words.slice(cut).join(' ')])
      if (!qualifiers) continue
      // The town is the last words before the qualifier ("Harbor Lane 17 Boston MA").
      for (let start = 0; start < cut; start++) {
        const named = resolveNamed([words.slice(start, cut).join(' ')], qualifiers)
        if (named) return named
      }
    }
    return null
  }

  // The first part that is a known place, qualified by the parts after it ("12 Main St, Austin, TX").
  for (let first = 0; first < parts.length; first++) {
    const qualifiers = readQualifiers(parts.slice(first + 1)) ?? {}
    const named = resolveNamed([parts[first] as string], qualifiers)
    if (named) return named
  }
  return null
}

/** The state or country the trailing parts name; null when none of them is one. */
function readQualifiers(parts: string[]): Qualifiers | null {
  const qualifiers: Qualifiers = {}
  let recognised = false
  for (const part of parts) {
    const state = usStateCode(part)
    const country = countryByName().get(normalizePlaceName(part))
    // Two letters may be a state or a country ("CA", "IN"): a state when it is one, as the ZIP data is American.
    if (state && !qualifiers.state) {
      qualifiers.state = state
      recognised = true
    } else if (country && !qualifiers.country) {
      qualifiers.country = country
      recognised = true
    }
  }
  return recognised ? qualifiers : null
}

function resolveNamed(names: string[], qualifiers: Qualifiers): Place | null {
  const table = cityTable()
  const key = normalizePlaceName(names[0] ?? '')
  if (!key) return null
  // GeoNames calls the city "New York City"; people write "New York" or "NYC".
  const alias = NAME_ALIASES[key]
  const candidates = alias
    ? [...citiesNamed(table, alias), ...citiesNamed(table, key)]
    : citiesNamed(table, key)
  let best = -1
  for (const index of candidates) {
    if (qualifiers.state) {
      if (table.country[index] !== 'US' || table.admin[index] !== qualifiers.state) continue
    }
    if (qualifiers.country && table.country[index] !== qualifiers.country) {
      // "Lyon, FR" wants France; a state code that is also a country code was already read as the state.
      if (!(qualifiers.state && qualifiers.country === 'US')) continue
    }
    if (best < 0 || (table.population[index] ?? 0) > (table.population[best] ?? 0)) best = index
  }
  if (best >= 0) {
    const country = table.country[best] ?? ''
    const admin = table.admin[best] ?? ''
    return {
      lat: round5(table.lat[best] ?? 0),
      lon: round5(table.lon[best] ?? 0),
      city: table.name[best] ?? '',
      ...(country === 'US' && admin ? { region: admin } : {}),
      country,
      precision: 'city',
    }
  }
  // A US town under 1,000 people is not among GeoNames' cities but has a ZIP code.
  if (qualifiers.state && (!qualifiers.country || qualifiers.country === 'US')) {
    const town = lookupTown(key, qualifiers.state)
    if (town) return townPlace(town)
  }
  return null
}

/**
 * The town a place lies in, placed at the town's own point: what may be shown of a location that is private
 * until acceptance. A ZIP code's centre becomes its town's; a town is itself.
 */
export function cityPlaceOf(place: Place): Place {
  if (place.precision !== 'zip') return { ...place, precision: 'city' }
  const named = resolveNamed([place.city], { state: place.region, country: place.country })
  if (named) return named
  const town = place.region ? lookupTown(normalizePlaceName(place.city), place.region) : undefined
  if (town) return townPlace(town)
  // Not reachable with the shipped data (every ZIP's town has a centroid); a coarse cell is the safe answer.
  return {
    ...place,
    lat: Math.round(place.lat * 10) / 10,
    lon: Math.round(place.lon * 10) / 10,
    precision: 'city',
  }
}

/** A place's label as people write it: "Round Rock, TX", "Lyon, FR". */
export function placeLabel(place: Place): string {
  return `${place.city}, ${place.region ?? place.country}`
}

/** A US town known only by its ZIP codes, as a place of city precision. */
function townPlace(town: NonNullable<ReturnType<typeof lookupTown>>): Place {
  return {
    lat: round5(town.lat),
    lon: round5(town.lon),
    city: town.city,
    region: town.state,
    country: 'US',
    precision: 'city',
  }
}

function round5(value: number): number {
  return Math.round(value * 1e5) / 1e5
}

/**
 * What a service stores for a location when it is saved: the place, and its town's own point, which is
 * all that may be used for someone who may not see the location. null: the gazetteer does not know it.
 */
export interface LocatedPlace extends Place {
  precision: 'zip' | 'city'
  cityLat: number
  cityLon: number
}

export function locatePlace(text: string): LocatedPlace | null {
  const place = resolvePlace(text)
  if (!place) return null
  const city = cityPlaceOf(place)
  return { ...place, precision: place.precision ?? 'city', cityLat: city.lat, cityLon: city.lon }
}

const LOCATED_CACHE_SIZE = 10_000
const located = new Map<string, LocatedPlace | null>()

/**
 * locatePlace for a load of many stored items written before locations were resolved: most share a few
 * thousand location texts, each resolved once (the most recent 10,000 kept).
 */
export function locatePlaceCached(text: string): LocatedPlace | null {
  const known = located.get(text)
  if (known !== undefined || located.has(text)) return known ?? null
  const found = locatePlace(text)
  located.set(text, found)
  if (located.size > LOCATED_CACHE_SIZE) located.delete(located.keys().next().value as string)
  return found
}
