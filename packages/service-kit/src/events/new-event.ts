import { randomUUID } from 'node:crypto'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import type { TSchema } from '@sinclair/typebox'
import {
  eventDefinition,
  type DomainEvent,
  type EventData,
  type EventName,
} from '@marketplace/contracts/events'
import { currentTraceparent } from '../tracing/event-trace'

const checkers = new Map<string, TypeCheck<TSchema>>()

export function dataChecker(type: EventName): TypeCheck<TSchema> {
  let checker = checkers.get(type)
  if (!checker) {
    checker = TypeCompiler.Compile(eventDefinition(type).schema)
    checkers.set(type, checker)
  }
  return checker
}

/**
 * Builds a domain event from the registry: the version comes from the definition and the
 * data is checked against its schema now, so a producer bug fails at the write that caused
 * it instead of in some consumer later.
 */
export function newEvent<N extends EventName>(
  type: N,
  fields: { aggregateId: string; actorId: string | null; data: EventData<N>; requestId?: string },
): DomainEvent<N> {
  const checker = dataChecker(type)
  if (!checker.Check(fields.data)) {
    const first = checker.Errors(fields.data).First()
    throw new Error(`Event ${type} has invalid data at ${first?.path}: ${first?.message}`)
  }
  // With tracing on, the request's trace context is stored with the event in the outbox so
  // the relay and the consumers continue the same trace (tracing/event-trace.ts).
  const traceparent = currentTraceparent()
  return {
    id: randomUUID(),
    type,
    version: eventDefinition(type).version,
    occurredAt: new Date().toISOString(),
    actorId: fields.actorId,
    aggregateId: fields.aggregateId,
    ...(fields.requestId ? { requestId: fields.requestId } : {}),
    data: fields.data,
    ...(traceparent ? { traceparent } : {}),
    // TypeScript cannot relate the generic data type to the union of envelopes; the
    // schema check above is what guarantees the shape.
  } as unknown as DomainEvent<N>
}
