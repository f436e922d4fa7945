import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client'

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry
  }
}

/** Prometheus /metrics: process metrics plus one latency histogram per route and status. */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { serviceName: string }) => {
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

    app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) =>
      reply.type(registry.contentType).send(await registry.metrics()),
    )
  },
  { name: 'metrics' },
)

export type MetricsRegistry = Registry
