import { Type } from '@sinclair/typebox'
import { BadRequestError, NotFoundError } from '@marketplace/service-kit'

/**
 * Bodies are read by the use cases, not by JSON schema, so a missing or mistyped field gets
 * the product's message ("Title and Location are required for preview"), not the validator's.
 */
export const LooseBody = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])
export type LooseBodyValue = Record<string, unknown> | null | undefined

export const IdParams = Type.Object({ id: Type.String() })

/** Our ids are ObjectIds in hex; anything else names no post (404, never a 500). */
export function postIdOf(value: string): string {
  if (!/^[0-9a-f]{24}$/.test(value)) throw new NotFoundError('Post not found', 'POST_NOT_FOUND')
  return value
}

/** A whole number from a query string, with a person-readable 400 when it is not one. */
export function integerParam(
  value: unknown,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
): number {
  if (value === undefined || value === '') return fallback
  const number = typeof value === 'number' ? value : Number(value)
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new BadRequestError(
      `${name} must be a whole number from ${min} to ${max}`,
      'INVALID_QUERY',
    )
  }
  return number
}
