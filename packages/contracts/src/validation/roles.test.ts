import { hasAnyRole, roleCodesOf } from './roles'

describe('roleCodesOf', () => {
  it('reads a list', () => {
    expect(roleCodesOf([2000, '2001'])).toEqual(['2000', '2001'])
  })

  it('reads the values of an object', () => {
    expect(roleCodesOf({ User: 2000, Editor: 2002 })).toEqual(['2000', '2002'])
  })

  it('reads a single value', () => {
    expect(roleCodesOf(2000)).toEqual(['2000'])
    expect(roleCodesOf('2001')).toEqual(['2001'])
  })

  it('holds no role for nothing or for odd values', () => {
    expect(roleCodesOf(undefined)).toEqual([])
    expect(roleCodesOf(null)).toEqual([])
    expect(roleCodesOf(true)).toEqual([])
    expect(roleCodesOf([null, { User: 2000 }])).toEqual([])
  })
})

describe('hasAnyRole', () => {
  it('compares numbers and strings as strings', () => {
    expect(hasAnyRole([2000], ['2000'])).toBe(true)
    expect(hasAnyRole(['2000'], [2000])).toBe(true)
    expect(hasAnyRole({ User: 2000 }, ['2000'])).toBe(true)
    expect(hasAnyRole('2000', ['2000'])).toBe(true)
  })

  it('is true when any allowed role is held', () => {
    expect(hasAnyRole(['2000', '2002'], ['2001', '2002'])).toBe(true)
  })

  it('is false when no allowed role is held', () => {
    expect(hasAnyRole(['2001'], ['2000'])).toBe(false)
    expect(hasAnyRole(undefined, ['2000'])).toBe(false)
    expect(hasAnyRole(['2000'], [])).toBe(false)
  })
})
