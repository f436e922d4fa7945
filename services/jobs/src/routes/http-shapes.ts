import { Type } from '@sinclair/typebox'
import { NotFoundError } from '@marketplace/service-kit'

export const IdParams = Type.Object({ id: Type.String() })

/** Our ids are ObjectIds in hex; anything else names no post (404, never a 500). */
export function postIdOf(value: string): string {
  if (!/^[0-9a-f]{24}$/.test(value)) throw new NotFoundError('Post not found', 'POST_NOT_FOUND')
  return value
}
