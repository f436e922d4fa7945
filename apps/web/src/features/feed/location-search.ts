import Fuse from 'fuse.js'
import { LOCATIONS, LOCATION_FUZZY_THRESHOLD } from '@marketplace/contracts/marketplace'

const fuse = new Fuse<string>([...LOCATIONS], {
  threshold: LOCATION_FUZZY_THRESHOLD,
  ignoreLocation: true,
})

/** spec 1 §5, §9: the known locations whose fuzzy score is within 0.4 of the typed text. */
export function matchLocations(text: string): string[] {
  const query = text.trim()
  if (!query) return [...LOCATIONS]
  return fuse.search(query).map((result) => result.item)
}
