import { Value } from '@sinclair/typebox/value'
import {
  INTERNATIONAL_LOCATIONS,
  isKnownLocation,
  LOCATION_FUZZY_THRESHOLD,
  LOCATIONS,
  SPECIAL_LOCATIONS,
  SpecialLocationSchema,
  US_LOCATIONS,
} from './locations'

describe('locations', () => {
  it('has Remote and Hybrid as special locations', () => {
    expect(SPECIAL_LOCATIONS).toEqual(['Remote', 'Hybrid'])
    expect(Value.Check(SpecialLocationSchema, 'Remote')).toBe(true)
    expect(Value.Check(SpecialLocationSchema, 'Onsite')).toBe(false)
  })

  it('has the sixteen US locations', () => {
    expect(US_LOCATIONS).toHaveLength(16)
    expect(US_LOCATIONS[0]).toBe('New York NY')
    expect(US_LOCATIONS).toContain('Washington DC')
    expect(US_LOCATIONS[15]).toBe('Dallas TX')
  })

  it('has the thirteen international locations', () => {
    expect(INTERNATIONAL_LOCATIONS).toHaveLength(13)
    expect(INTERNATIONAL_LOCATIONS[0]).toBe('London UK')
    expect(INTERNATIONAL_LOCATIONS[12]).toBe('Rome')
  })

  it('orders the dropdown Remote, Hybrid, US, then international', () => {
    expect(LOCATIONS).toEqual([...SPECIAL_LOCATIONS, ...US_LOCATIONS, ...INTERNATIONAL_LOCATIONS])
    expect(new Set(LOCATIONS).size).toBe(LOCATIONS.length)
  })

  it('knows the listed locations only', () => {
    expect(isKnownLocation('Tokyo')).toBe(true)
    expect(isKnownLocation('Springfield')).toBe(false)
  })

  it('shows fuzzy matches under 0.4', () => {
    expect(LOCATION_FUZZY_THRESHOLD).toBe(0.4)
  })
})
