import { Type, type TLiteral, type TUnion } from '@sinclair/typebox'

type LiteralSchemas<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> }

/**
 * Builds `Type.Union([Type.Literal(a), Type.Literal(b), ...])` from one constant list, so a
 * list of allowed values and its route schema can never drift apart.
 */
export function literalUnion<const T extends readonly string[]>(
  values: T,
): TUnion<LiteralSchemas<T>> {
  return Type.Union(values.map((value) => Type.Literal(value))) as unknown as TUnion<
    LiteralSchemas<T>
  >
}

/** Narrowing membership test for the constant lists of this folder. */
export function isOneOf<const T extends readonly string[]>(
  values: T,
  value: unknown,
): value is T[number] {
  return typeof value === 'string' && (values as readonly string[]).includes(value)
}
