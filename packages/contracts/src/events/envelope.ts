import { Type, type Static, type TSchema } from '@sinclair/typebox'
import './formats'

/**
 * Every domain event travels in this envelope (ARCHITECTURE.md "Events"). The Kafka message
 * key is `aggregateId`, so one aggregate's events keep their order on one partition.
 */
export const EventEnvelopeSchema = <T extends TSchema>(data: T) =>
  Type.Object({
    id: Type.String({ minLength: 1 }),
    type: Type.String({ minLength: 1 }),
    version: Type.Integer({ minimum: 1 }),
    occurredAt: Type.String({ format: 'date-time' }),
    actorId: Type.Union([Type.String(), Type.Null()]),
    aggregateId: Type.String({ minLength: 1 }),
    /** x-request-id of the HTTP request that caused the event, for tracing across services. */
    requestId: Type.Optional(Type.String()),
    data,
  })

export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string
  type: TType
  version: number
  occurredAt: string
  actorId: string | null
  aggregateId: string
  requestId?: string
  data: TData
}

export const AnyEventEnvelopeSchema = EventEnvelopeSchema(Type.Unknown())
export type AnyEventEnvelope = Static<typeof AnyEventEnvelopeSchema>
