import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { context, trace } from '@opentelemetry/api'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import { exporterFor } from './start-tracing'

// With OTEL_TRACES_EXPORTER=zipkin the spans leave as Zipkin's v2 JSON, which the local viewer
// with a web UI (Zipkin's server) takes at /api/v2/spans. A plain HTTP server stands in for it
// here and records what arrives.
describe('the Zipkin exporter', () => {
  let server: Server
  const received: Array<{ path: string; body: unknown }> = []

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response) => {
      let text = ''
      request.on('data', (chunk) => (text += chunk))
      request.on('end', () => {
        received.push({ path: request.url ?? '', body: JSON.parse(text) })
        response.writeHead(202).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("sends each span with its service's name, trace id and parent to the spans API", async () => {
    const { port } = server.address() as AddressInfo
    const exporter = exporterFor({
      protocol: 'zipkin',
      zipkinEndpoint: `http://127.0.0.1:${port}/api/v2/spans`,
      endpoint: 'http://127.0.0.1:1',
      serviceName: 'jobs',
      sampleRatio: 1,
    })
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'jobs' }),
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    })
    const tracer = provider.getTracer('test')
    const parent = tracer.startSpan('POST /api/jobs/requests')
    const child = tracer.startSpan(
      'job-requests publish',
      {},
      trace.setSpan(context.active(), parent),
    )
    child.end()
    parent.end()
    await provider.forceFlush()
    await provider.shutdown()

    const spans = received.flatMap(({ path, body }) => {
      expect(path).toBe('/api/v2/spans')
      return body as Array<{
        name: string
        traceId: string
        id: string
        parentId?: string
        localEndpoint: { serviceName: string }
      }>
    })
    const byName = new Map(spans.map((span) => [span.name, span]))
    const request = byName.get('POST /api/jobs/requests')
    const publish = byName.get('job-requests publish')
    expect(request?.localEndpoint.serviceName).toBe('jobs')
    expect(publish?.traceId).toBe(request?.traceId)
    expect(publish?.parentId).toBe(request?.id)
  })
})
