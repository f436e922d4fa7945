/**
 * The distances the Within control offers, in miles: the feeds accept these (docs/distance.md;
 * the services read them from the geo package, which the browser does not load).
 */
export const DISTANCE_CHOICES_MILES = [5, 10, 25, 50] as const

/**
 * "3 mi away" on a card. A distance the server rounded (the post's location is private until
 * acceptance, so it is measured from its town) says "about".
 */
export function distanceText(miles: number, rounded = false): string {
  if (rounded) return `about ${miles} mi away`
  if (miles < 1) return 'less than a mile away'
  return `${Number.isInteger(miles) ? miles : miles.toFixed(1)} mi away`
}

/** The message of a feed answer that did not know the place asked about, if that is the error. */
export function unknownPlaceMessage(error: unknown): string | undefined {
  const data = (error as { data?: { code?: unknown; message?: unknown } } | undefined)?.data
  return data?.code === 'UNKNOWN_PLACE' && typeof data.message === 'string'
    ? data.message
    : undefined
}
