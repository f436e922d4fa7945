import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { checkHealth } from '../lib/health-check'
import type { UpstreamName } from '../upstreams'

// service-kit's health plugin adds this decorator, but its augmentation is not reachable from
// the package's public typings; restated here with the same signature (interfaces merge).
declare module 'fastify' {
  interface FastifyInstance {
    addReadinessCheck(name: string, check: () => Promise<void>): void
  }
}

export interface UpstreamReadinessOptions {
  /** Every instance of each configured service. */
  upstreams: Partial<Record<UpstreamName, string[]>>
}

// Below service-kit's 2 s limit per check, so a hung upstream is reported by name.
const CHECK_TIMEOUT_MS = 1500

/**
 * /readyz asks each configured upstream's /healthz; unconfigured ones are not waited for. A
 * service with several instances is ready while one of them answers: the proxy sends its
 * requests to the others (lib/instance-pool), so one instance down is no reason to take the
 * gateway out of service.
 */
export const upstreamReadinessPlugin = fp(
  async (app: FastifyInstance, options: UpstreamReadinessOptions) => {
    for (const [name, instances] of Object.entries(options.upstreams)) {
      app.addReadinessCheck(`upstream:${name}`, async () => {
        try {
          await Promise.any(instances.map((url) => checkHealth(`${url}/healthz`, CHECK_TIMEOUT_MS)))
        } catch (error) {
          const reasons = (error as AggregateError).errors.map((e: Error) => e.message)
          throw new Error(
            instances.length === 1 ? reasons[0] : `every instance: ${reasons.join('; ')}`,
          )
        }
      })
    }
  },
  { name: 'upstream-readiness', dependencies: ['health'] },
)
