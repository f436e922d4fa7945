import { milesBetween, resolvePlace, type LatLon } from '@marketplace/geo'

/** Distinct place texts remembered (search places and post locations repeat a lot). */
const MAX_REMEMBERED = 50_000

/**
 * Free-text places to points with the offline gazetteer (@marketplace/geo), remembered by
 * their text: a saved search's place is resolved once, and a town many posts name too. A
 * text the gazetteer does not know is remembered as null (it stays a text match).
 */
export function createPlaces(resolve: (text: string) => LatLon | null = resolvePlace) {
  const known = new Map<string, LatLon | null>()

  function placeOf(text: string): LatLon | null {
    const key = text.trim().toLowerCase()
    const cached = known.get(key)
    if (cached !== undefined) return cached
    const place = resolve(text)
    const point = place ? { lat: place.lat, lon: place.lon } : null
    // Oldest first out: a Map keeps its insertion order.
    if (known.size >= MAX_REMEMBERED) known.delete(known.keys().next().value!)
    known.set(key, point)
    return point
  }

  /** Miles between the two places, or null when the gazetteer knows either not. */
  function distanceOf(near: string, postLocation: string): number | null {
    const from = placeOf(near)
    const to = from && placeOf(postLocation)
    return from && to ? milesBetween(from, to) : null
  }

  return { placeOf, distanceOf }
}

export type Places = ReturnType<typeof createPlaces>
