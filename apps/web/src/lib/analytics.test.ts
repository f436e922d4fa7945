import { ANALYTICS_LIMITS, type AnalyticsBatch } from '@marketplace/contracts/marketplace'
import {
  ANALYTICS_FLUSH_DELAY_MS,
  ANALYTICS_SESSION_KEY,
  flushAnalytics,
  startAnalytics,
  track,
} from '@/lib/analytics'
import { jsonResponse, stubFetch } from '@/test/helpers'

/** The batches the reporter posted with fetch, parsed. */
function fetchedBatches(spy: jest.SpyInstance): AnalyticsBatch[] {
  return spy.mock.calls.map(([url, init]: [string, RequestInit]) => {
    expect(url).toBe('/api/analytics/events')
    expect(init.method).toBe('POST')
    expect(new Headers(init.headers).get('content-type')).toBe('application/json')
    // Anonymous and exempt from CSRF: no token, no CSRF header.
    expect(new Headers(init.headers).has('authorization')).toBe(false)
    return JSON.parse(String(init.body)) as AnalyticsBatch
  })
}

/** Event `index` of batch `batch` that fetch posted. */
function fetchedEvent(spy: jest.SpyInstance, batch: number, index = 0) {
  const event = fetchedBatches(spy)[batch]?.events[index]
  if (!event) throw new Error(`no event ${index} in batch ${batch}`)
  return event
}

function stubMatchMedia(mobile: boolean) {
  const matchMedia = jest.fn((query: string) => ({ matches: mobile, media: query }))
  Object.defineProperty(window, 'matchMedia', { configurable: true, value: matchMedia })
  return matchMedia
}

describe('analytics reporter', () => {
  let stop: () => void = () => {}
  let fetchStub: ReturnType<typeof stubFetch>

  beforeEach(() => {
    jest.useFakeTimers()
    sessionStorage.clear()
    fetchStub = stubFetch(() => jsonResponse(202))
    stop = startAnalytics()
  })
  afterEach(() => {
    stop()
    fetchStub.restore()
    jest.useRealTimers()
    delete (window as { matchMedia?: unknown }).matchMedia
    delete (navigator as { sendBeacon?: unknown }).sendBeacon
  })

  it('sends nothing before it is started', () => {
    stop()
    track('help_viewed')
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)
    flushAnalytics(true)
    expect(fetchStub.spy).not.toHaveBeenCalled()
  })

  it('sends a queued event about 2 s later, with the pathname, time, device and session', () => {
    window.history.pushState({}, '', '/search?q=private+words#top')
    track('help_viewed')
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS - 1)
    expect(fetchStub.spy).not.toHaveBeenCalled()
    jest.advanceTimersByTime(1)
    expect(fetchedBatches(fetchStub.spy)[0]?.events).toHaveLength(1)
    const event = fetchedEvent(fetchStub.spy, 0)
    expect(event).toEqual({
      name: 'help_viewed',
      occurredAt: expect.any(String),
      path: '/search',
      deviceType: 'desktop',
      sessionId: expect.stringMatching(new RegExp(ANALYTICS_LIMITS.sessionIdPattern)),
    })
    expect(new Date(event.occurredAt).toISOString()).toBe(event.occurredAt)
    window.history.pushState({}, '', '/')
  })

  it('flushes at 20 events, so no request carries more than the gateway takes', () => {
    for (let i = 0; i < 45; i += 1) track('page_view', { i }, `/p${i}`)
    // Two full batches went at once; the rest waits for the timer.
    expect(fetchedBatches(fetchStub.spy).map((b) => b.events.length)).toEqual([20, 20])
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)
    const batches = fetchedBatches(fetchStub.spy)
    expect(batches.map((b) => b.events.length)).toEqual([20, 20, 5])
    expect(batches.flatMap((b) => b.events.map((e) => e.props?.i))).toEqual(
      Array.from({ length: 45 }, (_, i) => i),
    )
  })

  it('keeps one session id per tab, in sessionStorage, matching the pattern', () => {
    track('page_view')
    track('help_viewed')
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)
    const first = fetchedEvent(fetchStub.spy, 0, 0)
    const second = fetchedEvent(fetchStub.spy, 0, 1)
    expect(first.sessionId).toMatch(new RegExp(ANALYTICS_LIMITS.sessionIdPattern))
    expect(second.sessionId).toBe(first.sessionId)
    expect(sessionStorage.getItem(ANALYTICS_SESSION_KEY)).toBe(first.sessionId)

    // A reload in the same tab: the id is read back.
    stop()
    stop = startAnalytics()
    track('page_view')
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)
    expect(fetchedEvent(fetchStub.spy, 1).sessionId).toBe(first.sessionId)

    // A new tab (empty sessionStorage): a new id.
    stop()
    sessionStorage.clear()
    stop = startAnalytics()
    track('page_view')
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)
    const fresh = fetchedEvent(fetchStub.spy, 2).sessionId
    expect(fresh).toMatch(new RegExp(ANALYTICS_LIMITS.sessionIdPattern))
    expect(fresh).not.toBe(first.sessionId)
  })

  it('replaces a stored session id that does not match the pattern', () => {
    sessionStorage.setItem(ANALYTICS_SESSION_KEY, 'bad id!')
    track('page_view')
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)
    const id = fetchedEvent(fetchStub.spy, 0).sessionId
    expect(id).not.toBe('bad id!')
    expect(id).toMatch(new RegExp(ANALYTICS_LIMITS.sessionIdPattern))
  })

  it('makes the id with getRandomValues where randomUUID is missing (plain http)', () => {
    const own = Object.getOwnPropertyDescriptor(crypto, 'randomUUID')
    Object.defineProperty(crypto, 'randomUUID', { configurable: true, value: undefined })
    try {
      track('page_view')
      jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)
      expect(fetchedEvent(fetchStub.spy, 0).sessionId).toMatch(/^[0-9a-f]{32}$/)
    } finally {
      if (own) Object.defineProperty(crypto, 'randomUUID', own)
      else delete (crypto as { randomUUID?: unknown }).randomUUID
    }
    expect(typeof crypto.randomUUID).toBe('function')
  })

  it('reports mobile at 768 px and below, from matchMedia', () => {
    const matchMedia = stubMatchMedia(true)
    track('page_view')
    stubMatchMedia(false)
    track('page_view')
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)
    expect(matchMedia).toHaveBeenCalledWith('(max-width: 768px)')
    expect(fetchedBatches(fetchStub.spy)[0]?.events.map((e) => e.deviceType)).toEqual([
      'mobile',
      'desktop',
    ])
  })

  it('cuts props to 10 keys and 2000 characters, the path to 512, and drops empty values', () => {
    const props: Record<string, string | number | null | undefined> = {
      empty: undefined,
      none: null,
      nan: Number.NaN,
      long: 'x'.repeat(5000),
    }
    for (let i = 0; i < 15; i += 1) props[`k${i}`] = i
    track('client_error', props, `/${'p'.repeat(600)}`)
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)
    const event = fetchedEvent(fetchStub.spy, 0)
    expect(event.path).toHaveLength(512)
    expect(Object.keys(event.props!)).toEqual([
      'long',
      'k0',
      'k1',
      'k2',
      'k3',
      'k4',
      'k5',
      'k6',
      'k7',
      'k8',
    ])
    expect(event.props!.long).toBe('x'.repeat(2000))
  })

  it('sends what is left with a beacon when the page is hidden or left', () => {
    const sendBeacon = jest.fn((_url: string, _data: Blob) => true)
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: sendBeacon })
    track('page_view', undefined, '/a')
    window.dispatchEvent(new Event('pagehide'))
    expect(sendBeacon).toHaveBeenCalledTimes(1)
    const [url, blob] = sendBeacon.mock.calls[0]!
    expect(url).toBe('/api/analytics/events')
    expect(blob).toBeInstanceOf(Blob)
    expect(blob.type).toBe('application/json')
    expect(fetchStub.spy).not.toHaveBeenCalled()

    track('help_viewed', undefined, '/b')
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' })
    document.dispatchEvent(new Event('visibilitychange'))
    delete (document as { visibilityState?: unknown }).visibilityState
    expect(sendBeacon).toHaveBeenCalledTimes(2)
    // Nothing is left for the timer.
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)
    expect(fetchStub.spy).not.toHaveBeenCalled()
  })

  it('reads the beacon body back as the batch', async () => {
    let body: Blob | null = null
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      value: (_url: string, data: Blob) => {
        body = data
        return true
      },
    })
    track('support_ticket_created', { channel: 'contact' }, '/contact-us')
    window.dispatchEvent(new Event('pagehide'))
    // jsdom's Blob has no text(): read it as a browser's FileReader would.
    jest.useRealTimers()
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader()
      reader.onload = () => resolve(String(reader.result))
      reader.readAsText(body!)
    })
    const batch = JSON.parse(text) as AnalyticsBatch
    expect(batch.events).toEqual([
      expect.objectContaining({
        name: 'support_ticket_created',
        path: '/contact-us',
        props: { channel: 'contact' },
      }),
    ])
  })

  it('falls back to a keepalive fetch when the beacon is refused or missing', () => {
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: () => false })
    track('page_view', undefined, '/a')
    window.dispatchEvent(new Event('pagehide'))
    expect(fetchStub.spy).toHaveBeenCalledTimes(1)
    expect(fetchStub.spy.mock.calls[0]?.[1]).toMatchObject({ keepalive: true })
    expect(fetchedEvent(fetchStub.spy, 0).path).toBe('/a')

    delete (navigator as { sendBeacon?: unknown }).sendBeacon
    track('page_view', undefined, '/b')
    window.dispatchEvent(new Event('pagehide'))
    expect(fetchedEvent(fetchStub.spy, 1).path).toBe('/b')
  })

  it('swallows failures: a refused or thrown send is dropped, not retried', async () => {
    fetchStub.restore()
    const rejected = jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('offline'))
    track('page_view')
    expect(() => jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)).not.toThrow()
    await Promise.resolve()
    expect(rejected).toHaveBeenCalledTimes(1)

    rejected.mockImplementation(() => {
      throw new Error('blocked')
    })
    track('page_view')
    expect(() => jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS)).not.toThrow()
    // Dropped: later timers send nothing more.
    jest.advanceTimersByTime(ANALYTICS_FLUSH_DELAY_MS * 5)
    expect(rejected).toHaveBeenCalledTimes(2)
    fetchStub = { spy: rejected, restore: () => rejected.mockRestore() }
  })
})
