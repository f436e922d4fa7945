import { boundingBox, DISTANCE_CHOICES_MILES, exactMiles, isDistanceChoice, milesBetween, roundedMiles } from './distance'
import { cellKey, cellKeysWithin } from './grid'

describe('milesBetween', () => {
  it('is zero from a place to itself', () => {
    expect(milesBetween({ lat: 30.27, lon: -97.74 }, { lat: 30.27, lon: -97.74 })).toBe(0)
  })

  it('matches published great-circle distances', () => {
    // New York City to Los Angeles: about 2,445 miles; London to Paris: about 214 miles.
    expect(milesBetween({ lat: 40.7128, lon: -74.006 }, { lat: 34.0522, lon: -118.2437 })).toBeCloseTo(2445, -1)
    expect(milesBetween({ lat: 51.5074, lon: -0.1278 }, { lat: 48.8566, lon: 2.3522 })).toBeCloseTo(214, -1)
  })

  it('is the same both ways and crosses the antimeridian', () => {
    const a = { lat: 10, lon: 179.5 }
    const b = { lat: 10, lon: -179.5 }
    expect(milesBetween(a, b)).toBeCloseTo(milesBetween(b, a), 9)
    expect(milesBetween(a, b)).toBeLessThan(70)
  })
})

describe('roundedMiles', () => {
  it('never says less than a mile and keeps whole miles up to ten', () => {
    expect(roundedMiles(0)).toBe(1)
    expect(roundedMiles(0.3)).toBe(1)
    expect(roundedMiles(3.4)).toBe(3)
    expect(roundedMiles(9.4)).toBe(9)
  })

  it('steps by 5 up to 50 and by 10 beyond', () => {
    expect(roundedMiles(12.4)).toBe(10)
    expect(roundedMiles(17.1)).toBe(15)
    expect(roundedMiles(48)).toBe(50)
    expect(roundedMiles(123)).toBe(120)
  })

  it('shows the exact distance to one decimal', () => {
    expect(exactMiles(3.14159)).toBe(3.1)
  })
})

describe('choices and grid', () => {
  it('offers 5, 10, 25 and 50 miles', () => {
    expect(DISTANCE_CHOICES_MILES).toEqual([5, 10, 25, 50])
    expect(isDistanceChoice(25)).toBe(true)
    expect(isDistanceChoice(7)).toBe(false)
  })

  it('a bounding box holds every point within the distance', () => {
    const center = { lat: 30.27, lon: -97.74 }
    const box = boundingBox(center, 50)
    for (let bearing = 0; bearing < 360; bearing += 15) {
      // A point 49.9 miles away on this bearing (small-distance approximation is enough for the test).
      const r = (bearing * Math.PI) / 180
      const dLat = (49.9 / 69.09) * Math.cos(r)
      const dLon = ((49.9 / 69.09) * Math.sin(r)) / Math.cos((center.lat * Math.PI) / 180)
      const point = { lat: center.lat + dLat, lon: center.lon + dLon }
      expect(point.lat).toBeGreaterThanOrEqual(box.minLat)
      expect(point.lat).toBeLessThanOrEqual(box.maxLat)
      expect(point.lon).toBeGreaterThanOrEqual(box.minLon)
      expect(point.lon).toBeLessThanOrEqual(box.maxLon)
      expect(cellKeysWithin(center, 50)).toContain(cellKey(point))
    }
  })

  it('reads a handful of cells for the largest choice', () => {
    expect(cellKeysWithin({ lat: 30.27, lon: -97.74 }, 50).length).toBeLessThanOrEqual(16)
    expect(cellKeysWithin({ lat: 89.9, lon: 0 }, 50).length).toBeGreaterThan(0)
  })
})
