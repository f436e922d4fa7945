import { Value } from '@sinclair/typebox/value'
import type { Static } from '@sinclair/typebox'
import { isOneOf, literalUnion } from './literal-union'

describe('literalUnion', () => {
  const Schema = literalUnion(['a', 'b'] as const)

  it('accepts exactly the listed values', () => {
    expect(Value.Check(Schema, 'a')).toBe(true)
    expect(Value.Check(Schema, 'b')).toBe(true)
    expect(Value.Check(Schema, 'c')).toBe(false)
    expect(Value.Check(Schema, 'A')).toBe(false)
    expect(Value.Check(Schema, 1)).toBe(false)
  })

  it('types its static as the union of the values', () => {
    const value: Static<typeof Schema> = 'a'
    // @ts-expect-error 'c' is not in the list
    const wrong: Static<typeof Schema> = 'c'
    expect([value, wrong]).toEqual(['a', 'c'])
  })
})

describe('isOneOf', () => {
  it('is true for listed strings only', () => {
    expect(isOneOf(['a', 'b'] as const, 'a')).toBe(true)
    expect(isOneOf(['a', 'b'] as const, 'c')).toBe(false)
    expect(isOneOf(['a', 'b'] as const, undefined)).toBe(false)
    expect(isOneOf(['1'] as const, 1)).toBe(false)
  })
})
