import type { FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import type { RequestContext } from '../domain/auth-dependencies'

export function contextOf(request: FastifyRequest): RequestContext {
  return { ip: request.ip, requestId: request.id }
}

/**
 * Bodies are checked by the use cases, not by JSON schema, so a missing or mistyped field
 * gets the product's message ("Missing email or password") rather than the validator's.
 */
export const LooseBody = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])
export type LooseBodyValue = Record<string, unknown> | null | undefined

export const MessageAnswer = Type.Object({ message: Type.String() })

export const UserAnswerSchema = Type.Object({
  _id: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  phoneNumber: Type.String(),
  isWorker: Type.Boolean(),
  roles: Type.Array(Type.String()),
})
