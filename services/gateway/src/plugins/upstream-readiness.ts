import http from 'node:http'
import https from 'node:https'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { UpstreamName } from '../upstreams'

// service-kit's health plugin adds this decorator, but its augmentation is not reachable from
// the package's public typings; restated here with the same signature (interfaces merge).
declare module 'fastify' {
  interface FastifyInstance {
    addReadinessCheck(name: string, check: () => Promise<void>): void
  }
}

export interface UpstreamReadinessOptions {
  upstreams: Partial<Record<UpstreamName, string>>
}

// Below service-kit's 2 s limit per check, so a hung upstream is reported by name.
const CHECK_TIMEOUT_MS = 1500

/** /readyz asks each configured upstream's /healthz; unconfigured ones are not waited for. */
export const upstreamReadinessPlugin = fp(
  async (app: FastifyInstance, options: UpstreamReadinessOptions) => {
    for (const [name, baseUrl] of Object.entries(options.upstreams)) {
      app.addReadinessCheck(`upstream:${name}`, () => checkHealth(`${baseUrl}/healthz`))
    }
  },
  { name: 'upstream-readiness', dependencies: ['health'] },
)

/** node:http rather than fetch: fetch refuses "bad ports" (6000, 10080, ...) a service may use. */
function checkHealth(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http
    const request = client.get(url, { agent: false, timeout: CHECK_TIMEOUT_MS }, (response) => {
      response.resume()
      const status = response.statusCode ?? 0
      if (status >= 200 && status < 300) resolve()
      else reject(new Error(`answered ${status}`))
    })
    request.on('timeout', () => request.destroy(new Error('timed out')))
    request.on('error', (error: Error & { code?: string }) =>
      reject(new Error(`unreachable (${error.code ?? error.message})`)),
    )
  })
}
