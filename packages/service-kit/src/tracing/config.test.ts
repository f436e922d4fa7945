import { tracingOptionsFromEnvironment } from './config'

describe('tracing settings', () => {
  it('are off unless TRACING asks for them', () => {
    expect(tracingOptionsFromEnvironment({})).toBeNull()
    expect(tracingOptionsFromEnvironment({ TRACING: '0' })).toBeNull()
    expect(
      tracingOptionsFromEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x:4318' }),
    ).toBeNull()
  })

  it('take the standard OpenTelemetry variables', () => {
    expect(
      tracingOptionsFromEnvironment({
        TRACING: '1',
        SERVICE_NAME: 'jobs',
        INSTANCE_ID: 'jobs-2',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        TRACING_SAMPLE_RATIO: '0.25',
      }),
    ).toEqual({
      protocol: 'otlp',
      zipkinEndpoint: 'http://127.0.0.1:9411/api/v2/spans',
      serviceName: 'jobs',
      instanceId: 'jobs-2',
      endpoint: 'http://collector:4318',
      sampleRatio: 0.25,
    })
    expect(tracingOptionsFromEnvironment({ TRACING: 'true' })).toMatchObject({
      endpoint: 'http://127.0.0.1:4318',
      sampleRatio: 1,
    })
  })

  it('send to Zipkin when OTEL_TRACES_EXPORTER says zipkin, and refuse an exporter they do not have', () => {
    expect(
      tracingOptionsFromEnvironment({
        TRACING: '1',
        OTEL_TRACES_EXPORTER: 'zipkin',
        OTEL_EXPORTER_ZIPKIN_ENDPOINT: 'http://127.0.0.1:19411/api/v2/spans',
      }),
    ).toMatchObject({ protocol: 'zipkin', zipkinEndpoint: 'http://127.0.0.1:19411/api/v2/spans' })
    expect(() =>
      tracingOptionsFromEnvironment({ TRACING: '1', OTEL_TRACES_EXPORTER: 'jaeger' }),
    ).toThrow(/OTEL_TRACES_EXPORTER must be otlp or zipkin/)
  })

  it('refuse a sample ratio outside 0 to 1', () => {
    expect(() =>
      tracingOptionsFromEnvironment({ TRACING: '1', TRACING_SAMPLE_RATIO: '2' }),
    ).toThrow(/TRACING_SAMPLE_RATIO/)
  })
})
