import { AppError } from '@marketplace/service-kit'

// Nothing to connect to: no instance listens (a Kubernetes Service without ready pods refuses
// the connection), or the name does not resolve. The service is missing, not broken: 503 with
// Retry-After, like a service that is not deployed, so clients wait and try again, and only
// that service's routes are affected (the gateway itself stays ready).
const NO_INSTANCE = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/** Seconds a client waits before asking a missing service again (about a pod's start). */
export const MISSING_UPSTREAM_RETRY_AFTER_SECONDS = 5

/** Whether a connection error's code means no instance of the service could be reached. */
export function isNoInstance(code: string | undefined): boolean {
  return code !== undefined && NO_INSTANCE.has(code)
}

/** The answer on a missing service's own routes; every other route is served as usual. */
export function upstreamUnreachable(name: string): AppError {
  return new AppError(503, 'UPSTREAM_UNREACHABLE', `The ${name} service could not be reached`, {
    'retry-after': String(MISSING_UPSTREAM_RETRY_AFTER_SECONDS),
  })
}
