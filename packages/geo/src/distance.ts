/** A point on the Earth, in decimal degrees (WGS 84, as GeoNames gives them). */
export interface LatLon {
  lat: number
  lon: number
}

/** The distances a person may choose in the "Within" control, in miles. */
export const DISTANCE_CHOICES_MILES = [5, 10, 25, 50] as const
export type DistanceChoiceMiles = (typeof DISTANCE_CHOICES_MILES)[number]

export function isDistanceChoice(miles: number): miles is DistanceChoiceMiles {
  return (DISTANCE_CHOICES_MILES as readonly number[]).includes(miles)
}

/** Mean radius of the Earth in statute miles (IUGG mean radius, 6371.0088 km). */
export const EARTH_RADIUS_MILES = 3958.7613

const RADIANS_PER_DEGREE = Math.PI / 180

/** Great-circle distance by the haversine formula: good to a few metres at these scales. */
export function milesBetween(a: LatLon, b: LatLon): number {
  const dLat = (b.lat - a.lat) * RADIANS_PER_DEGREE
  const dLon = (b.lon - a.lon) * RADIANS_PER_DEGREE
  const sinLat = Math.sin(dLat / 2)
  const sinLon = Math.sin(dLon / 2)
  const h =
    sinLat * sinLat +
    Math.cos(a.lat * RADIANS_PER_DEGREE) * Math.cos(b.lat * RADIANS_PER_DEGREE) * sinLon * sinLon
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)))
}

/**
 * The distance shown to someone who may not see the exact place (a post whose location stays private until
 * an offer is accepted): the distance is measured from the city's centre and then made coarse, so that asking
 * from many places cannot narrow the place down below the city. Whole miles up to 10 (never less than 1),
 * steps of 5 up to 50, then steps of 10.
 */
export function roundedMiles(miles: number): number {
  if (!Number.isFinite(miles) || miles < 0) return 0
  if (miles < 10) return Math.max(1, Math.round(miles))
  if (miles < 50) return Math.round(miles / 5) * 5
  return Math.round(miles / 10) * 10
}

/** The distance shown when the exact place is public: one decimal, which is all a card needs. */
export function exactMiles(miles: number): number {
  return Math.round(miles * 10) / 10
}

/** Miles per degree of latitude (constant) and of longitude (shrinks with the cosine of the latitude). */
export const MILES_PER_DEGREE_LAT = (EARTH_RADIUS_MILES * Math.PI) / 180

export interface BoundingBox {
  minLat: number
  maxLat: number
  minLon: number
  maxLon: number
}

/**
 * A latitude/longitude box that contains every point within `miles` of `center` (a little more near its
 * corners): the cheap first cut before the exact haversine test. Near the poles or across the antimeridian
 * the box widens to every longitude rather than wrapping.
 */
export function boundingBox(center: LatLon, miles: number): BoundingBox {
  const dLat = miles / MILES_PER_DEGREE_LAT
  const minLat = Math.max(-90, center.lat - dLat)
  const maxLat = Math.min(90, center.lat + dLat)
  const widestLat = Math.max(Math.abs(minLat), Math.abs(maxLat))
  const cos = Math.cos(widestLat * RADIANS_PER_DEGREE)
  const dLon = cos < 1e-6 ? 180 : miles / (MILES_PER_DEGREE_LAT * cos)
  if (dLon >= 180 || center.lon - dLon < -180 || center.lon + dLon > 180) {
    return { minLat, maxLat, minLon: -180, maxLon: 180 }
  }
  return { minLat, maxLat, minLon: center.lon - dLon, maxLon: center.lon + dLon }
}
