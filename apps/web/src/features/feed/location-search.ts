import { LOCATIONS, LOCATION_FUZZY_THRESHOLD } from '@marketplace/contracts/marketplace'

type LocationMatcher = (query: string) => string[]

let fuzzyMatcher: LocationMatcher | null = null
let loadingMatcher: Promise<LocationMatcher> | null = null

/**
 * Loads the fuzzy matcher (fuse.js) when the location filter is about to be used, not with
 * the home page: it is most of a 7 KB gzip that every visit would otherwise download before
 * the feed shows (the home route's JavaScript budget).
 */
export function loadLocationSearch(): Promise<LocationMatcher> {
  loadingMatcher ??= import('fuse.js').then(({ default: Fuse }) => {
    const fuse = new Fuse<string>([...LOCATIONS], {
      threshold: LOCATION_FUZZY_THRESHOLD,
      ignoreLocation: true,
    })
    fuzzyMatcher = (query) => fuse.search(query).map((result) => result.item)
    return fuzzyMatcher
  })
  return loadingMatcher
}

/**
 * The known locations whose fuzzy score is within 0.4 of the typed text. In
 * the moment before the matcher has loaded, the locations that contain the text.
 */
export function matchLocations(text: string): string[] {
  const query = text.trim()
  if (!query) return [...LOCATIONS]
  if (fuzzyMatcher) return fuzzyMatcher(query)
  const lower = query.toLowerCase()
  return LOCATIONS.filter((location) => location.toLowerCase().includes(lower))
}
