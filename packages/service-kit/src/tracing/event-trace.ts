import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Span,
} from '@opentelemetry/api'
import { isTracingOn } from './tracing-state'

/**
 * The trace of one user action through the outbox and Kafka. A write stores its events in
 * the changed document and the relay publishes them later, on its own schedule: the request
 * is gone by then. So the request's trace context is written into each event as it is made
 * (`traceparent`, stored with the event in the outbox), the relay continues that trace with a
 * publish span and sends the context in the Kafka message's headers, and each consumer
 * continues it with a process span around its handler. The envelope on the wire stays as it
 * was: the relay moves `traceparent` from the stored event to the headers.
 */

const TRACER_NAME = '@marketplace/service-kit'
export const TRACEPARENT_HEADER = 'traceparent'

/** An event as stored in the outbox while tracing: with its request's trace context. */
export interface TracedEvent {
  traceparent?: string
}

/** The current trace context as a `traceparent` value, if this process traces and one is active. */
export function currentTraceparent(): string | undefined {
  if (!isTracingOn()) return undefined
  const carrier: Record<string, string> = {}
  propagation.inject(context.active(), carrier)
  return carrier[TRACEPARENT_HEADER]
}

export interface PublishTrace {
  /** Headers for the Kafka message: the publish span's context. */
  headers: Record<string, string>
  end(error?: unknown): void
}

/**
 * A publish span in the stored event's trace, from the moment the event was stored (its
 * `occurredAt`) to the broker's acknowledgement: its length is the time the event waited in
 * the outbox plus the send. Null when tracing is off or the event carries no context.
 */
export function startPublishSpan(
  event: { id: string; type: string; occurredAt: string } & TracedEvent,
  topic: string,
): PublishTrace | null {
  if (!isTracingOn() || !event.traceparent) return null
  const parent = propagation.extract(ROOT_CONTEXT, { [TRACEPARENT_HEADER]: event.traceparent })
  const stored = Date.parse(event.occurredAt)
  const span = trace.getTracer(TRACER_NAME).startSpan(
    `${topic} publish`,
    {
      kind: SpanKind.PRODUCER,
      ...(Number.isFinite(stored) ? { startTime: stored } : {}),
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'send',
        'messaging.destination.name': topic,
        'messaging.message.id': event.id,
        'event.type': event.type,
        'outbox.wait_ms': Number.isFinite(stored) ? Math.max(0, Date.now() - stored) : 0,
      },
    },
    parent,
  )
  const headers: Record<string, string> = {}
  propagation.inject(trace.setSpan(parent, span), headers)
  return {
    headers,
    end(error?: unknown) {
      if (error !== undefined) markFailed(span, error)
      span.end()
    },
  }
}

type KafkaHeaders = Record<string, Buffer | string | (Buffer | string)[] | undefined>

/**
 * Runs a consumer's handling of one message inside a process span that continues the
 * message's trace (its `traceparent` header). Without tracing, or without a context in the
 * message, `handle` runs as it is (a message without one starts a trace of its own when
 * tracing is on, so its database calls and pushes are still seen).
 */
export async function traceMessageHandling<T>(
  message: { headers?: KafkaHeaders; offset: string },
  where: { topic: string; partition: number; groupId: string },
  handle: () => Promise<T>,
): Promise<T> {
  if (!isTracingOn()) return handle()
  const raw = message.headers?.[TRACEPARENT_HEADER]
  const value = Array.isArray(raw) ? raw[0] : raw
  const carrier: Record<string, string> =
    value === undefined ? {} : { [TRACEPARENT_HEADER]: value.toString() }
  const parent = propagation.extract(ROOT_CONTEXT, carrier)
  return trace.getTracer(TRACER_NAME).startActiveSpan(
    `${where.topic} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'process',
        'messaging.destination.name': where.topic,
        'messaging.consumer.group.name': where.groupId,
        'messaging.destination.partition.id': String(where.partition),
        'messaging.kafka.offset': Number(message.offset),
      },
    },
    parent,
    async (span) => {
      try {
        return await handle()
      } catch (error) {
        markFailed(span, error)
        throw error
      } finally {
        span.end()
      }
    },
  )
}

/**
 * `work` to run outside any trace, for a timer of a long-lived loop that a request may start
 * (the outbox relay, woken by a write): a timer keeps the context it was created in, so each
 * of the loop's later passes would otherwise join that request's trace, for ever. Returns
 * `work` itself when tracing is off.
 */
export function outsideAnyTrace<A extends unknown[], R>(
  work: (...args: A) => R,
): (...args: A) => R {
  return isTracingOn() ? context.bind(ROOT_CONTEXT, work) : work
}

/** Runs `work` inside a span of its own (a mail sent), when tracing is on. */
export async function inSpan<T>(
  name: string,
  attributes: Record<string, string | number | boolean>,
  work: () => Promise<T>,
): Promise<T> {
  if (!isTracingOn()) return work()
  return trace
    .getTracer(TRACER_NAME)
    .startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        return await work()
      } catch (error) {
        markFailed(span, error)
        throw error
      } finally {
        span.end()
      }
    })
}

function markFailed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error))
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  })
}
