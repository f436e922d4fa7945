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

    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched'
      if (route === '/metrics') return
      duration
        .labels(request.method, route, String(reply.statusCode))
        .observe(reply.elapsedTime / 1000)
    })

    app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) =>
      reply.type(registry.contentType).send(await registry.metrics()),
    )
  },
  { name: 'metrics' },
)

export type MetricsRegistry = Registry
