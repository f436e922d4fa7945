import {
  ANALYTICS_EVENTS_PATH,
  ANALYTICS_LIMITS,
  type AnalyticsBatch,
  type AnalyticsEvent,
  type AnalyticsEventName,
  type AnalyticsPropValue,
} from '@marketplace/contracts/marketplace'
import { MOBILE_QUERY } from '@/hooks/use-is-mobile'

/**
 * Product analytics: a best-effort reporter. Events wait in a queue and go to
 * the gateway in batches; a failed send is dropped, never retried nor shown. Nothing is sent
 * until startAnalytics() (main.tsx), so tests and other callers stay silent by default.
 * Anonymous: never pass user ids, e-mails, names or anything typed into a form.
 */

const { batchMax, pathMax, propsMax, propValueMax, sessionIdPattern } = ANALYTICS_LIMITS
/** Soon enough that a closed tab rarely loses events, rare enough to batch a page's burst. */
export const ANALYTICS_FLUSH_DELAY_MS = 2000
export const ANALYTICS_SESSION_KEY = 'analytics-session'

export type AnalyticsProps = Record<string, AnalyticsPropValue | null | undefined>

type Transport = (batch: AnalyticsBatch, leaving: boolean) => void

let transport: Transport | null = null
let queue: AnalyticsEvent[] = []
let timer: ReturnType<typeof setTimeout> | undefined
let session: string | undefined

function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  // randomUUID needs a secure context; plain http (a LAN address) still has getRandomValues.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
}

/** Random per tab: sessionStorage outlives reloads but not the tab. */
function sessionId(): string {
  if (session) return session
  try {
    const kept = sessionStorage.getItem(ANALYTICS_SESSION_KEY)
    if (kept && new RegExp(sessionIdPattern).test(kept)) return (session = kept)
    session = newId()
    sessionStorage.setItem(ANALYTICS_SESSION_KEY, session)
  } catch {
    // Storage refused (private mode): the id lives as long as the page.
  }
  return (session ??= newId())
}

/** Within the gateway's limits, so one odd value cannot get the whole batch refused. */
function cleanProps(props: AnalyticsProps): Record<string, AnalyticsPropValue> {
  const clean: Record<string, AnalyticsPropValue> = {}
  let kept = 0
  for (const [key, value] of Object.entries(props)) {
    if (kept >= propsMax) break
    if (value == null || (typeof value === 'number' && !Number.isFinite(value))) continue
    clean[key] = typeof value === 'string' ? value.slice(0, propValueMax) : value
    kept += 1
  }
  return clean
}

function sendToGateway(batch: AnalyticsBatch, leaving: boolean): void {
  const body = JSON.stringify(batch)
  // A page being left may be gone before a fetch completes; a beacon outlives it.
  const beaconed =
    leaving &&
    navigator.sendBeacon?.(ANALYTICS_EVENTS_PATH, new Blob([body], { type: 'application/json' }))
  if (beaconed) return
  fetch(ANALYTICS_EVENTS_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    credentials: 'same-origin',
    keepalive: leaving,
  }).catch(() => {})
}

/** Sends everything queued, in batches of at most batchMax. */
export function flushAnalytics(leaving = false): void {
  clearTimeout(timer)
  timer = undefined
  while (queue.length > 0) {
    const events = queue.splice(0, batchMax)
    try {
      transport?.({ events }, leaving)
    } catch {
      // Best-effort: a batch that cannot be sent is dropped.
    }
  }
}

/** Queues one event; path defaults to the page's pathname (never the query: search words). */
export function track(name: AnalyticsEventName, props?: AnalyticsProps, path?: string): void {
  if (!transport) return
  try {
    const event: AnalyticsEvent = {
      name,
      occurredAt: new Date().toISOString(),
      path: (path ?? window.location.pathname).slice(0, pathMax),
      deviceType: window.matchMedia?.(MOBILE_QUERY).matches ? 'mobile' : 'desktop',
      sessionId: sessionId(),
    }
    if (props) event.props = cleanProps(props)
    queue.push(event)
    if (queue.length >= batchMax) flushAnalytics()
    else timer ??= setTimeout(flushAnalytics, ANALYTICS_FLUSH_DELAY_MS)
  } catch {
    // Analytics never breaks the page.
  }
}

const onPageHide = () => flushAnalytics(true)
const onVisibilityChange = () => {
  if (document.visibilityState === 'hidden') flushAnalytics(true)
}

/** Starts reporting (once, at startup); tests pass their own transport and call stop. */
export function startAnalytics(send: Transport = sendToGateway): () => void {
  transport = send
  window.addEventListener('pagehide', onPageHide)
  document.addEventListener('visibilitychange', onVisibilityChange)
  return () => {
    transport = null
    clearTimeout(timer)
    timer = undefined
    queue = []
    session = undefined
    window.removeEventListener('pagehide', onPageHide)
    document.removeEventListener('visibilitychange', onVisibilityChange)
  }
}
