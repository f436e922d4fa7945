import { ANALYTICS_LIMITS } from '@marketplace/contracts/marketplace'
import { track } from '@/lib/analytics'

/**
 * Uncaught errors and unhandled rejections are reported to analytics with their
 * message, stack, type and URL; so is a page that failed to render after its retries.
 */

// A failure that repeats every frame would otherwise send a request every 20 errors.
let errorsLeft: number = ANALYTICS_LIMITS.batchMax
// The same error can reach a route's error element and the window (React in development).
const reported = new WeakSet<object>()

/** kind: 'error', 'unhandledrejection', 'render' or 'chunk_load'. */
export function reportClientError(error: unknown, kind: string): void {
  if (errorsLeft <= 0) return
  if (error !== null && typeof error === 'object') {
    if (reported.has(error)) return
    reported.add(error)
  }
  errorsLeft -= 1
  const known = error instanceof Error ? error : null
  track('client_error', {
    message: known ? known.message : String(error),
    name: known?.name,
    stack: known?.stack,
    type: kind,
    // Without the query or hash, which may hold search words or tokens.
    url: window.location.origin + window.location.pathname,
  })
}

const onError = (event: ErrorEvent) => reportClientError(event.error ?? event.message, 'error')
const onRejection = (event: PromiseRejectionEvent) =>
  reportClientError(event.reason, 'unhandledrejection')

/** Installs the window listeners (once, at startup); answers a stop function for tests. */
export function installErrorReporting(): () => void {
  errorsLeft = ANALYTICS_LIMITS.batchMax
  window.addEventListener('error', onError)
  window.addEventListener('unhandledrejection', onRejection)
  return () => {
    window.removeEventListener('error', onError)
    window.removeEventListener('unhandledrejection', onRejection)
  }
}
