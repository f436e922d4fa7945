import { hasAnyRole } from '@/lib/roles'

describe('hasAnyRole (role checks)', () => {
  it('accepts a list, an object or a single value, compared as strings', () => {
    expect(hasAnyRole(['2000'], ['2000'])).toBe(true)
    expect(hasAnyRole({ User: 2000 }, ['2000'])).toBe(true)
    expect(hasAnyRole(2001, ['2001', '2002'])).toBe(true)
    expect(hasAnyRole(['2000'], ['2001', '2002'])).toBe(false)
    expect(hasAnyRole(undefined, ['2000'])).toBe(false)
  })
})
