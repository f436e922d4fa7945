import type { Static } from '@sinclair/typebox'
import { isOneOf, literalUnion } from './literal-union'

/** Listed first in the location dropdown, after All. */
export const SPECIAL_LOCATIONS = ['Remote', 'Hybrid'] as const
export const SpecialLocationSchema = literalUnion(SPECIAL_LOCATIONS)
export type SpecialLocation = Static<typeof SpecialLocationSchema>

// Spelled exactly as the product's copy lists them (no comma between city and state).
export const US_LOCATIONS = [
  'New York NY',
  'Los Angeles CA',
  'Chicago IL',
  'San Francisco CA',
  'Boston MA',
  'Seattle WA',
  'Austin TX',
  'Atlanta GA',
  'Miami FL',
  'Washington DC',
  'Denver CO',
  'Portland OR',
  'Nashville TN',
  'San Diego CA',
  'Houston TX',
  'Dallas TX',
] as const
export type UsLocation = (typeof US_LOCATIONS)[number]

export const INTERNATIONAL_LOCATIONS = [
  'London UK',
  'Toronto',
  'Vancouver',
  'Berlin',
  'Amsterdam',
  'Paris',
  'Dublin',
  'Sydney',
  'Singapore',
  'Tokyo',
  'Lisbon',
  'Madrid',
  'Rome',
] as const
export type InternationalLocation = (typeof INTERNATIONAL_LOCATIONS)[number]

/**
 * The location dropdown order after All: Remote, Hybrid, then the US and international
 * cities. Not a closed list: a typed text with no fuzzy match may be used as a
 * custom location, so locations are validated only by length, never against this list.
 */
export const LOCATIONS = [
  ...SPECIAL_LOCATIONS,
  ...US_LOCATIONS,
  ...INTERNATIONAL_LOCATIONS,
] as const
export type KnownLocation = (typeof LOCATIONS)[number]
export const isKnownLocation = (value: unknown): value is KnownLocation => isOneOf(LOCATIONS, value)

/** Location search shows matches whose fuzzy score is under this threshold. */
export const LOCATION_FUZZY_THRESHOLD = 0.4
