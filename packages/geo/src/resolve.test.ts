import { cityPlaceOf, placeLabel, resolvePlace } from './resolve'
import { milesBetween } from './distance'
import { citiesNamed, cityTable } from './gazetteer'

function place(text: string) {
  const found = resolvePlace(text)
  if (!found) throw new Error(`expected "${text}" to resolve`)
  return found
}

describe('resolvePlace', () => {
  it('finds a US city with its state, in the ways people write it', () => {
    for (const text of ['Austin, TX', 'Austin TX', 'austin, texas', 'Austin', '  AUSTIN ,  Tx ']) {
      const austin = place(text)
      expect(austin).toMatchObject({ city: 'Austin', region: 'TX', country: 'US', precision: 'city' })
      expect(austin.lat).toBeCloseTo(30.267, 2)
      expect(austin.lon).toBeCloseTo(-97.743, 2)
    }
  })

  it('uses the state to tell places of the same name apart', () => {
    expect(place('Paris, TX')).toMatchObject({ city: 'Paris', region: 'TX', country: 'US' })
    expect(place('Austin, MN').lat).toBeCloseTo(43.67, 1)
    expect(place('Portland, ME').lon).toBeCloseTo(-70.26, 1)
  })

  it('takes the most populous place when nothing narrows the name', () => {
    expect(place('Paris')).toMatchObject({ city: 'Paris', country: 'FR' })
    expect(place('Portland')).toMatchObject({ region: 'OR' })
  })

  it('reads countries by code and by name', () => {
    expect(place('Lyon, FR')).toMatchObject({ city: 'Lyon', country: 'FR' })
    expect(place('Paris, France')).toMatchObject({ country: 'FR' })
    expect(place('London, UK')).toMatchObject({ city: 'London', country: 'GB' })
    expect(place('London, UK').region).toBeUndefined()
  })

  it('ignores accents and spells the common abbreviations one way', () => {
    expect(place('Sao Paulo, Brazil')).toMatchObject({ city: 'São Paulo', country: 'BR' })
    expect(place('Saint Louis, MO')).toMatchObject({ city: 'St. Louis', region: 'MO' })
    expect(place('Ft. Worth, TX')).toMatchObject({ city: 'Fort Worth' })
  })

  it('knows New York by the names people use', () => {
    for (const text of ['New York', 'New York, NY', 'NYC']) {
      const newYork = place(text)
      expect(newYork.lat).toBeCloseTo(40.71, 1)
      expect(newYork.lon).toBeCloseTo(-74.01, 1)
    }
  })

  it('finds the town in a street address', () => {
    expect(place('12 Main St, Round Rock, TX')).toMatchObject({ city: 'Round Rock', region: 'TX' })
  })

  it('places a US ZIP code at its own centre, finer than the town', () => {
    const zip = place('78701')
    expect(zip).toMatchObject({ city: 'Austin', region: 'TX', country: 'US', precision: 'zip' })
    expect(zip.lat).toBeCloseTo(30.2713, 3)
    expect(place('Austin, TX 78701-1234')).toMatchObject({ precision: 'zip', city: 'Austin' })
  })

  it('finds US towns too small for the city list through their ZIP codes', () => {
    // Hunt, Texas (ZIP 78024) has about 700 people: not in GeoNames' list of towns over 1,000.
    expect(citiesNamed(cityTable(), 'hunt').some((index) => cityTable().admin[index] === 'TX')).toBe(false)
    const hamlet = place('Hunt, TX')
    expect(hamlet).toMatchObject({ city: 'Hunt', region: 'TX', precision: 'city' })
  })

  it('answers null for text that is no place, so it keeps working as text', () => {
    for (const text of ['', '   ', 'Nowhere-ville', 'somewhere near the lake', 'Remote', '00000', 'x'.repeat(500)]) {
      expect(resolvePlace(text)).toBeNull()
    }
  })
})

describe('distances between known places', () => {
  it('puts Round Rock within 25 miles of Austin, and not within 10', () => {
    const miles = milesBetween(place('Austin, TX'), place('Round Rock, TX'))
    expect(miles).toBeGreaterThan(10)
    expect(miles).toBeLessThan(25)
  })

  it('puts San Antonio beyond 50 miles of Austin', () => {
    expect(milesBetween(place('Austin, TX'), place('San Antonio, TX'))).toBeGreaterThan(50)
  })
})

describe('cityPlaceOf', () => {
  it('moves a ZIP code to its town’s own point', () => {
    const zip = place('78664')
    const city = cityPlaceOf(zip)
    expect(city).toEqual(place('Round Rock, TX'))
    expect(city.precision).toBe('city')
  })

  it('leaves a town where it is', () => {
    expect(cityPlaceOf(place('Austin, TX'))).toEqual(place('Austin, TX'))
  })

  it('labels places as people write them', () => {
    expect(placeLabel(place('78664'))).toBe('Round Rock, TX')
    expect(placeLabel(place('Lyon, FR'))).toBe('Lyon, FR')
  })
})
