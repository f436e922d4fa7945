import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client'

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry
    /** The metrics listener's port when it has its own (METRICS_PORT; 0 picks a free one). */
    metricsAddress(): number | null
  }
}

/**
 * Prometheus /metrics: process metrics plus one latency histogram per route and status. With
 * `ownPort`, /metrics is served by a plain listener of its own on that port and `host` (opened
 * when the app is ready, closed with it) and the API's port answers 404 for it: whatever routes the API to
 * the world (the Ingress in front of the gateway) cannot expose it.
 */
export const metricsPlugin = fp(
  async (
    app: FastifyInstance,
    options: { serviceName: string; ownPort?: number; host?: string },
  ) => {
    const registry = new Registry()
    registry.setDefaultLabels({ service: options.serviceName })
    // The event-loop delay is sampled by a timer of this period (ms): prom-client's 10 ms woke
    // every process a hundred times a second, 0.4 % of a core each at rest. At 100 ms any
    // stall of 100 ms or more is still seen whole; shorter ones are seen when a tick falls in.
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 })
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: BUCKETS,
      registers: [registry],
    })
    app.decorate('metrics', registry)

    // One series per method, route and status, looked up by a plain string; routes are
    // patterns, not URLs, so the map holds exactly the label sets the histogram holds. A
    // child's `observe` allocates, re-validates the labels and rebuilds prom-client's key of
    // the series on every call (1.9 % of the gateway's CPU under load, about a tenth of what
    // it adds to the bare proxy: docs/gateway-performance.md), so after the first
    // observation of a series its record in the histogram (sum, count, one count per bucket:
    // what `observe` updates) is updated here. While the histogram keeps that record (a
    // reset gives it new ones) the result is the same; otherwise `observe` runs again and the
    // new record is taken. prom-client is pinned (pnpm-workspace.yaml); metrics.test.ts
    // compares the output with prom-client's own for the same observations.
    const children = new Map<string, Series>()
    const histogram = duration as unknown as PromClientHistogram
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched'
      if (route !== '/metrics') {
        const key = `${request.method} ${reply.statusCode} ${route}`
        let series = children.get(key)
        if (series === undefined) {
          const labels = { method: request.method, route, status: String(reply.statusCode) }
          series = { labels, child: duration.labels(labels), record: undefined, map: undefined }
          children.set(key, series)
        }
        observe(histogram, series, reply.elapsedTime / 1000)
      }
      done()
    })

    if (options.ownPort === undefined) {
      app.decorate('metricsAddress', () => null)
      app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) =>
        reply.type(registry.contentType).send(await registry.metrics()),
      )
      return
    }
    const listener: Server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404).end()
        return
      }
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics could not be collected')
          response.writeHead(500).end()
        },
      )
    })
    app.decorate('metricsAddress', () =>
      listener.listening ? (listener.address() as AddressInfo).port : null,
    )
    // onReady: listen() waits for it, so the scrape port is open once the app is (onListen
    // hooks do not hold listen() up), and a port in use fails the start.
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        listener.once('error', reject)
        listener.listen(options.ownPort, options.host ?? '127.0.0.1', () => resolve())
      })
    })
    app.addHook('onClose', async () => {
      if (listener.listening) await new Promise((resolve) => listener.close(resolve))
    })
  },
  { name: 'metrics' },
)

export type MetricsRegistry = Registry

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
/** prom-client's keys of a record's buckets: each bound as a property name. */
const BUCKET_KEYS = BUCKETS.map(String)

/** What prom-client 15's Histogram keeps of a series (`hashMap`, one record per label set). */
interface SeriesRecord {
  labels: Record<string, string | number>
  sum: number
  count: number
  bucketValues: Record<string, number>
}
interface PromClientHistogram {
  hashMap: Record<string, SeriesRecord>
}
interface Series {
  labels: Record<string, string>
  child: { observe(value: number): void }
  /** The histogram's record of this series, and the map it was found in. */
  record: SeriesRecord | undefined
  map: Record<string, SeriesRecord> | undefined
}

/** One observation of `seconds` in `series`: what prom-client's `observe` does to its record. */
export function observe(histogram: PromClientHistogram, series: Series, seconds: number) {
  const record = series.record
  if (record !== undefined && series.map === histogram.hashMap) {
    record.sum += seconds
    record.count += 1
    for (let i = 0; i < BUCKETS.length; i += 1) {
      if (seconds <= BUCKETS[i]!) {
        record.bucketValues[BUCKET_KEYS[i]!]! += 1
        break
      }
    }
    return
  }
  series.child.observe(seconds)
  series.map = histogram.hashMap
  series.record = Object.values(histogram.hashMap).find((candidate) =>
    Object.entries(series.labels).every(([name, value]) => candidate.labels[name] === value),
  )
}

export { BUCKETS as REQUEST_DURATION_BUCKETS }
export type { Series as RequestDurationSeries, PromClientHistogram }
