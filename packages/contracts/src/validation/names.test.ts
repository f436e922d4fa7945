import { isValidName } from './names'

describe('isValidName', () => {
  it('accepts a single letter', () => {
    expect(isValidName('A')).toBe(true)
  })

  it('accepts a 24-character name', () => {
    expect(isValidName('A'.repeat(24))).toBe(true)
  })

  it('refuses a 25-character name', () => {
    expect(isValidName('A'.repeat(25))).toBe(false)
  })

  it('accepts a hyphenated name such as Jean-Luc', () => {
    expect(isValidName('Jean-Luc')).toBe(true)
  })

  it('accepts a trailing hyphen and double hyphens, which the rule does not forbid', () => {
    expect(isValidName('Ann-')).toBe(true)
    expect(isValidName('Ann--Marie')).toBe(true)
  })

  it('refuses a name starting with a hyphen', () => {
    expect(isValidName('-Ann')).toBe(false)
  })

  it('refuses the empty name', () => {
    expect(isValidName('')).toBe(false)
  })

  it('refuses digits anywhere', () => {
    expect(isValidName('1Ann')).toBe(false)
    expect(isValidName('Ann2')).toBe(false)
  })

  it('refuses spaces, apostrophes and dots', () => {
    expect(isValidName('Mary Ann')).toBe(false)
    expect(isValidName(' Ann')).toBe(false)
    expect(isValidName("O'Brien")).toBe(false)
    expect(isValidName('J.')).toBe(false)
  })

  it('accepts accented letters, counting each as one character', () => {
    expect(isValidName('Zoë')).toBe(true)
    expect(isValidName('José')).toBe(true)
    expect(isValidName('é'.repeat(24))).toBe(true)
    expect(isValidName('é'.repeat(25))).toBe(false)
  })

  it('accepts a decomposed accent (e plus combining mark) as the letter it shows', () => {
    expect(isValidName('Jose\u0301')).toBe(true)
  })
})
