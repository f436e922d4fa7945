import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export type ReadinessCheck = () => Promise<void>
/** What a part last observed of a dependency, read without I/O. */
export type HealthDetail = () => unknown

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Registers what must hold for this instance to serve HTTP before /readyz says ready:
     * its database, its read models. Not a dependency the service can do without (Kafka).
     */
    addReadinessCheck(name: string, check: ReadinessCheck): void
    /** Adds a line to /healthz's `details`: state the part keeps, never a call out. */
    addHealthDetail(name: string, detail: HealthDetail): void
  }
}

/**
 * /healthz says the process is alive (no I/O: a liveness probe must not fail because a
 * dependency is down, or the orchestrator restarts healthy pods), with the details parts
 * registered (the broker's last known state). /readyz checks each registered readiness
 * condition with a short time limit: an instance leaves its Service only when it cannot
 * serve HTTP, not when a broker it publishes to later (through the outbox) is away.
 */
export const healthPlugin = fp(
  async (app: FastifyInstance) => {
    const checks = new Map<string, ReadinessCheck>()
    const details = new Map<string, HealthDetail>()
    app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
      checks.set(name, check)
    })
    app.decorate('addHealthDetail', (name: string, detail: HealthDetail) => {
      details.set(name, detail)
    })

    app.get('/healthz', { logLevel: 'warn' }, async () =>
      details.size === 0
        ? { status: 'ok' }
        : {
            status: 'ok',
            details: Object.fromEntries([...details].map(([name, detail]) => [name, detail()])),
          },
    )

    app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
      const results: Record<string, string> = {}
      let ready = true
      await Promise.all(
        [...checks].map(async ([name, check]) => {
          try {
            await withTimeout(check(), 2000)
            results[name] = 'ok'
          } catch (error) {
            ready = false
            results[name] = error instanceof Error ? error.message : 'failed'
          }
        }),
      )
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'not ready', checks: results })
    })
  },
  { name: 'health' },
)

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}
