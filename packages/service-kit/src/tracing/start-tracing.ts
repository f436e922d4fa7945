import { context, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin'
import { registerInstrumentations } from '@opentelemetry/instrumentation'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb'
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino'
import { SocketIoInstrumentation } from '@opentelemetry/instrumentation-socket.io'
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici'
import { resourceFromAttributes } from '@opentelemetry/resources'
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace'
import { setTracingOn } from './tracing-state'

export interface TracingOptions {
  serviceName: string
  /** `service.instance.id`: which of several instances recorded a span. */
  instanceId?: string
  /**
   * How spans leave: OTLP over HTTP (what collectors and Jaeger take) or Zipkin's JSON (the
   * local viewer with a web UI, docs/operations.md "Tracing"). Default OTLP.
   */
  protocol?: 'otlp' | 'zipkin'
  /** OTLP over HTTP, e.g. http://127.0.0.1:4318 (the viewer's receiver). */
  endpoint: string
  /** Zipkin's spans API, e.g. http://127.0.0.1:9411/api/v2/spans, when `protocol` is zipkin. */
  zipkinEndpoint?: string
  /** Share of new traces recorded (0 to 1); a request that arrives traced follows its caller. */
  sampleRatio: number
  /** Tests pass an in-memory exporter and a processor that exports at once. */
  processor?: (exporter: SpanExporter) => SpanProcessor
  exporter?: SpanExporter
}

/** Probes and scrapes are many and say nothing about a user's action: not traced. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics'])

let provider: TracerProvider | null = null

/**
 * Turns tracing on for this process: the W3C `traceparent` propagator, the async-context
 * manager that carries the current span through awaits, the OTLP exporter, and the
 * instrumentations of the libraries every service uses (from their OpenTelemetry project:
 * HTTP server and client, undici (the gateway's proxy), the MongoDB driver, pino (logs carry
 * `trace_id` and `span_id`), Socket.IO). Kafka and the outbox are traced by the kit itself
 * (events/ and outbox/): an event is published long after the request that stored it, by
 * the relay, so the trace context has to travel with the stored event, which kafkajs'
 * instrumentation cannot know about.
 *
 * Must run before those libraries are loaded (the instrumentations patch them as they are
 * required): each server.ts imports `@marketplace/service-kit/tracing/register` first.
 */
export function startTracing(options: TracingOptions): void {
  if (provider) return
  const exporter = options.exporter ?? exporterFor(options)
  provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName,
      ...(options.instanceId ? { 'service.instance.id': options.instanceId } : {}),
    }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.sampleRatio) }),
    spanProcessors: [
      options.processor
        ? options.processor(exporter)
        : // Spans leave in batches every 2 s (the default 5 s makes a trace late in the viewer).
          new BatchSpanProcessor({ exporter, scheduledDelayMillis: 2000 }),
    ],
  })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(provider)
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has(pathOf(request.url ?? '')),
        // Calls made outside any request (the gateway's health checks of its instances)
        // would each start a trace of their own.
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // The relay's sweeps and the consumers' ledger reads outside a traced event would
      // otherwise make a one-span trace each.
      new MongoDBInstrumentation({ requireParentSpan: true }),
      new PinoInstrumentation({ disableLogSending: true }),
      new SocketIoInstrumentation(),
    ],
  })
  const started = provider
  setTracingOn(() => started.forceFlush())
}

/** The exporter of `protocol`; exported for its test, which sends to a stand-in receiver. */
export function exporterFor(options: TracingOptions): SpanExporter {
  if (options.protocol === 'zipkin') {
    return new ZipkinExporter({
      url: options.zipkinEndpoint ?? 'http://127.0.0.1:9411/api/v2/spans',
      serviceName: options.serviceName,
    })
  }
  return new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` })
}

function pathOf(url: string): string {
  const queryStart = url.indexOf('?')
  return queryStart === -1 ? url : url.slice(0, queryStart)
}
