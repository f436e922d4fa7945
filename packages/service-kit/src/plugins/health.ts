import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export type ReadinessCheck = () => Promise<void>

declare module 'fastify' {
  interface FastifyInstance {
    /** Registers a dependency that must answer before /readyz says ready. */
    addReadinessCheck(name: string, check: ReadinessCheck): void
  }
}

/**
 * /healthz says the process is alive (no I/O: a liveness probe must not fail because a
 * dependency is down, or the orchestrator restarts healthy pods). /readyz checks each
 * registered dependency with a short time limit.
 */
export const healthPlugin = fp(
  async (app: FastifyInstance) => {
    const checks = new Map<string, ReadinessCheck>()
    app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
      checks.set(name, check)
    })

    app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }))

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
