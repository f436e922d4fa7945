import { trace } from '@opentelemetry/api'
import type { FastifyInstance } from 'fastify'
import { flushTracing, isTracingOn } from './tracing-state'

/**
 * With tracing on, names each request's server span by its route pattern ("POST
 * /posts/:postId/requests" instead of the bare "POST" the HTTP instrumentation knows), so the
 * viewer groups requests by route, and sends the spans still buffered when the app closes.
 * Adds no hook at all when tracing is off.
 */
export function traceRoutes(app: FastifyInstance): void {
  if (!isTracingOn()) return
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url
    const span = trace.getActiveSpan()
    if (span && route) {
      span.updateName(`${request.method} ${route}`)
      span.setAttribute('http.route', route)
    }
    done()
  })
  app.addHook('onClose', async () => flushTracing())
}
