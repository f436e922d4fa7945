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
 * the world (the Ingress in front of the gateway) cannot expose it (issue 18 §10).
 */
export const metricsPlugin = fp(
  async (
    app: FastifyInstance,
    options: { serviceName: string; ownPort?: number; host?: string },
  ) => {
    const registry = new Registry()
    registry.setDefaultLabels({ service: options.serviceName })
    collectDefaultMetrics({ register: registry })
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    })
    app.decorate('metrics', registry)

    // One histogram child per method, route and status, looked up by a plain string instead
    // of prom-client hashing the labels on every request. Routes are patterns, not URLs, so
    // the map holds exactly the label sets the histogram itself holds.
    const children = new Map<string, ReturnType<typeof duration.labels>>()
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched'
      if (route !== '/metrics') {
        const key = `${request.method} ${reply.statusCode} ${route}`
        let child = children.get(key)
        if (child === undefined) {
          child = duration.labels(request.method, route, String(reply.statusCode))
          children.set(key, child)
        }
        child.observe(reply.elapsedTime / 1000)
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
