import type { TracingOptions } from './start-tracing'

/**
 * Tracing settings from the environment, or null when tracing is off (the default):
 *   TRACING=1                       turn it on
 *   OTEL_TRACES_EXPORTER            otlp (default) or zipkin: the protocol spans leave in
 *   OTEL_EXPORTER_OTLP_ENDPOINT     the OTLP/HTTP receiver (default http://127.0.0.1:4318)
 *   OTEL_EXPORTER_ZIPKIN_ENDPOINT   Zipkin's spans API (default http://127.0.0.1:9411/api/v2/spans)
 *   OTEL_SERVICE_NAME, SERVICE_NAME the service's name in the viewer
 *   TRACING_SAMPLE_RATIO            share of new traces kept, 0 to 1 (default 1)
 * The OpenTelemetry variable names are the standard ones, so an operator's collector settings
 * apply unchanged.
 */
export function tracingOptionsFromEnvironment(
  env: NodeJS.ProcessEnv = process.env,
): Omit<TracingOptions, 'processor' | 'exporter'> | null {
  const flag = (env.TRACING ?? '').toLowerCase()
  if (flag !== '1' && flag !== 'true') return null
  const ratio = env.TRACING_SAMPLE_RATIO === undefined ? 1 : Number(env.TRACING_SAMPLE_RATIO)
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new Error(
      `TRACING_SAMPLE_RATIO must be a number from 0 to 1, got "${env.TRACING_SAMPLE_RATIO}"`,
    )
  }
  const exporter = (env.OTEL_TRACES_EXPORTER ?? 'otlp').toLowerCase()
  if (exporter !== 'otlp' && exporter !== 'zipkin') {
    throw new Error(
      `OTEL_TRACES_EXPORTER must be otlp or zipkin, got "${env.OTEL_TRACES_EXPORTER}"`,
    )
  }
  return {
    protocol: exporter,
    zipkinEndpoint: env.OTEL_EXPORTER_ZIPKIN_ENDPOINT ?? 'http://127.0.0.1:9411/api/v2/spans',
    serviceName: env.OTEL_SERVICE_NAME ?? env.SERVICE_NAME ?? 'marketplace-service',
    instanceId: env.INSTANCE_ID,
    endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://127.0.0.1:4318',
    sampleRatio: ratio,
  }
}
