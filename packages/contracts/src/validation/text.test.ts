import { charLength, exceeds, isBlank } from './text'

describe('text helpers', () => {
  it('counts an emoji as one character', () => {
    expect(charLength('a😀b')).toBe(3)
  })

  it('treats empty, whitespace-only, null and undefined as blank', () => {
    expect(isBlank('')).toBe(true)
    expect(isBlank(' \t')).toBe(true)
    expect(isBlank(null)).toBe(true)
    expect(isBlank(undefined)).toBe(true)
    expect(isBlank(' a ')).toBe(false)
  })

  it('exceeds only past the maximum', () => {
    expect(exceeds('abc', 3)).toBe(false)
    expect(exceeds('abcd', 3)).toBe(true)
    expect(exceeds('😀😀😀', 3)).toBe(false)
    expect(exceeds(undefined, 0)).toBe(false)
  })
})
