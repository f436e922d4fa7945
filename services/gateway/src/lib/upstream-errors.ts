import type { FastifyInstance } from 'fastify'
import { Counter } from 'prom-client'

export type UpstreamErrorReason = 'timeout' | 'unreachable' | 'bad_gateway'

/**
 * `gateway_upstream_errors_total{upstream, reason}`: proxied requests that got no usable
 * answer from their service: it did not answer in time (504), could not be reached (502), or
 * broke off (502). An answer the service gave, 5xx included, is not counted here: it shows
 * in the service's own request metrics.
 */
export function upstreamErrorCounter(app: FastifyInstance): Counter<'upstream' | 'reason'> {
  const existing = app.metrics.getSingleMetric('gateway_upstream_errors_total')
  if (existing) return existing as Counter<'upstream' | 'reason'>
  return new Counter({
    name: 'gateway_upstream_errors_total',
    help: 'Proxied requests that got no usable answer from their service, by reason',
    labelNames: ['upstream', 'reason'],
    registers: [app.metrics],
  })
}

/** The reason label of the gateway's own error code for a failed proxied request. */
export function reasonOf(code: string): UpstreamErrorReason {
  if (code === 'UPSTREAM_TIMEOUT') return 'timeout'
  if (code === 'UPSTREAM_UNREACHABLE') return 'unreachable'
  return 'bad_gateway'
}
