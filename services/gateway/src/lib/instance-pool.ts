import { BalancedPool } from 'undici'
import type { FastifyBaseLogger } from 'fastify'
import { checkHealth } from './health-check'
import { hasIdempotencyKey } from './safe-to-repeat'

/** The connection never opened: the request reached no service, whatever its method. */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
/** The connection broke under the request: it may have reached the service. */
const CONNECTION_BROKE = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'EPIPE'])
/** Methods a service may receive twice without a second effect. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const RETRY_DELAY_MS = 25
/** How often an instance that failed to connect is asked for its /healthz. */
const RECHECK_MS = 2000

export interface InstancePool {
  /** Spreads requests over the instances (reply-from's `undici` option). */
  dispatcher: BalancedPool
  /** reply-from's `retryDelay`: when and how soon a failed request goes to another instance. */
  retryDelay: (details: {
    err?: Error
    res?: unknown
    req: unknown
    attempt: number
  }) => number | null
  close(): void
}

/**
 * Several instances of one service behind one prefix, with undici's BalancedPool (what
 * @fastify/reply-from itself builds for several bases; built here so the gateway can watch
 * it): weighted round robin, where an instance that fails to connect loses weight and so
 * most of the traffic. What BalancedPool does not do is done here:
 * - a request that failed to connect is sent again, to another instance (the pool's
 *   round robin moves on); one whose connection broke under it only when its method is
 *   safe or it carries an `Idempotency-Key` (the service answers a repeat of a keyed write
 *   with the first answer: service-kit's idempotency plugin), so a POST without a key that
 *   may have reached a service is never sent twice;
 * - an instance that failed is asked for its /healthz every 2 s, and once it answers it gets
 *   its full share again (BalancedPool alone raises its weight only as new connections open,
 *   which keep-alive makes rare: it would come back with a sixth of the traffic for good).
 */
export function createInstancePool(
  name: string,
  instances: string[],
  logger: FastifyBaseLogger,
): InstancePool {
  // BalancedPool keeps only each URL's origin, and names an instance by it.
  const dispatcher = new BalancedPool(instances.map((url) => new URL(url).origin))
  const down = new Set<string>()

  dispatcher.on(
    'connectionError',
    (origin: URL, _targets: unknown, error: Error & { code?: string }) => {
      const instance = new URL(origin).origin
      if (down.has(instance)) return
      down.add(instance)
      logger.warn(
        { upstream: name, instance, code: error.code },
        'instance unreachable; sending its requests to the others',
      )
    },
  )

  const recheck = setInterval(() => {
    for (const instance of down) {
      checkHealth(`${instance}/healthz`, RECHECK_MS)
        .then(() => {
          if (!down.delete(instance)) return
          // Adding an upstream resets every instance's weight to the full one.
          dispatcher.removeUpstream(instance)
          dispatcher.addUpstream(instance)
          logger.info({ upstream: name, instance }, 'instance back; it gets its share again')
        })
        .catch(() => undefined)
    }
  }, RECHECK_MS)
  recheck.unref()

  return {
    dispatcher,
    retryDelay({ err, res, req, attempt }) {
      if (res || !err || attempt >= instances.length) return null
      const code = codeOf(err)
      const { method = '', headers } = req as { method?: string; headers?: Record<string, unknown> }
      const repeatable = SAFE_METHODS.has(method) || hasIdempotencyKey(headers)
      if (NEVER_CONNECTED.has(code) || (CONNECTION_BROKE.has(code) && repeatable)) {
        return RETRY_DELAY_MS * (attempt + 1)
      }
      return null
    },
    close: () => clearInterval(recheck),
  }
}

function codeOf(error: Error): string {
  const cause = (error as { cause?: { code?: string } }).cause
  return (error as { code?: string }).code ?? cause?.code ?? ''
}
