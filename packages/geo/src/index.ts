export { resolvePlace, cityPlaceOf, placeLabel, type Place } from './resolve'
export {
  milesBetween,
  roundedMiles,
  exactMiles,
  boundingBox,
  isDistanceChoice,
  DISTANCE_CHOICES_MILES,
  EARTH_RADIUS_MILES,
  MILES_PER_DEGREE_LAT,
  type LatLon,
  type BoundingBox,
  type DistanceChoiceMiles,
} from './distance'
export { cellKey, cellKeysWithin, DEFAULT_CELL_DEGREES } from './grid'
export { loadGazetteer } from './gazetteer'
export { normalizePlaceName } from './normalize'
