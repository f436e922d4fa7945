import {
  HTTP_RETRY,
  isRetryableMethod,
  isRetryableStatus,
  PERSIST_STORAGE_KEY,
  retryDelayMs,
  XSRF_COOKIE_NAME,
  XSRF_HEADER_NAME,
} from './http'

describe('HTTP retries', () => {
  it('retries 3 times from a 100 ms base with up to 20% jitter', () => {
    expect(HTTP_RETRY.retries).toBe(3)
    expect(HTTP_RETRY.baseDelayMs).toBe(100)
    expect(HTTP_RETRY.maxJitterRatio).toBe(0.2)
  })

  it('retries 429 and 5xx only', () => {
    expect(isRetryableStatus(429)).toBe(true)
    expect(isRetryableStatus(500)).toBe(true)
    expect(isRetryableStatus(503)).toBe(true)
    expect(isRetryableStatus(599)).toBe(true)
    expect(isRetryableStatus(400)).toBe(false)
    expect(isRetryableStatus(401)).toBe(false)
    expect(isRetryableStatus(404)).toBe(false)
    expect(isRetryableStatus(600)).toBe(false)
  })

  it('retries safe and idempotent methods only', () => {
    expect(isRetryableMethod('get')).toBe(true)
    expect(isRetryableMethod('PUT')).toBe(true)
    expect(isRetryableMethod('DELETE')).toBe(true)
    expect(isRetryableMethod('POST')).toBe(false)
    expect(isRetryableMethod('PATCH')).toBe(false)
  })

  it('doubles the delay per attempt without jitter', () => {
    const noJitter = () => 0
    expect([0, 1, 2].map((attempt) => retryDelayMs(attempt, noJitter))).toEqual([100, 200, 400])
  })

  it('adds at most 20% jitter', () => {
    expect(retryDelayMs(0, () => 1)).toBe(120)
    expect(retryDelayMs(2, () => 0.5)).toBe(440)
    expect(retryDelayMs(0, () => 5)).toBe(120)
  })

  it('names the XSRF cookie and header and the persist key', () => {
    expect(XSRF_COOKIE_NAME).toBe('XSRF-TOKEN')
    expect(XSRF_HEADER_NAME).toBe('X-XSRF-TOKEN')
    expect(PERSIST_STORAGE_KEY).toBe('persist')
  })
})
