/**
 * Shared HTTP client retries: 3 retries with exponential backoff from 100 ms plus up to 20%
 * jitter, on network errors, 429 and 5xx, for safe or idempotent methods only.
 * The search client has no time-out.
 */
export const HTTP_RETRY = {
  retries: 3,
  baseDelayMs: 100,
  maxJitterRatio: 0.2,
  methods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'],
} as const

/** 429 and every 5xx are worth retrying; other statuses are answers, not accidents. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599)
}

export function isRetryableMethod(method: string): boolean {
  return (HTTP_RETRY.methods as readonly string[]).includes(method.toUpperCase())
}

/**
 * Delay before retry number `attempt` (0 for the first retry): base * 2^attempt, plus a
 * jitter of up to 20% of that. `random` is injectable so tests are deterministic.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const exponential = HTTP_RETRY.baseDelayMs * 2 ** Math.max(0, attempt)
  const jitter = exponential * HTTP_RETRY.maxJitterRatio * Math.min(1, Math.max(0, random()))
  return Math.round(exponential + jitter)
}

/** Cross-site-request cookie and header names; local-storage flag for renewable sessions. */
export const XSRF_COOKIE_NAME = 'XSRF-TOKEN'
export const XSRF_HEADER_NAME = 'X-XSRF-TOKEN'
export const PERSIST_STORAGE_KEY = 'persist'
