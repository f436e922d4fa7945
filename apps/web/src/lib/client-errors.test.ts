import type { AnalyticsEvent } from '@marketplace/contracts/marketplace'
import { installErrorReporting, reportClientError } from '@/lib/client-errors'
import { importWithRetry } from '@/lib/retry-import'
import { recordAnalytics } from '@/test/analytics'

describe('client error reporting', () => {
  let analytics: ReturnType<typeof recordAnalytics>
  let uninstall: () => void

  beforeEach(() => {
    window.history.pushState({}, '', '/settings-account?tab=2#top')
    analytics = recordAnalytics()
    uninstall = installErrorReporting()
  })
  afterEach(() => {
    uninstall()
    analytics.stop()
    jest.restoreAllMocks()
    window.history.pushState({}, '', '/')
  })

  const errors = (): AnalyticsEvent[] =>
    analytics.events().filter((event) => event.name === 'client_error')

  it('reports an uncaught error with its message, name, stack, type and URL', () => {
    const error = new TypeError('x is not a function')
    window.dispatchEvent(new ErrorEvent('error', { error, message: error.message }))
    expect(errors()).toEqual([
      expect.objectContaining({
        name: 'client_error',
        path: '/settings-account',
        props: {
          message: 'x is not a function',
          name: 'TypeError',
          stack: error.stack!.slice(0, 2000),
          type: 'error',
          // No query or hash.
          url: 'http://localhost/settings-account',
        },
      }),
    ])
  })

  it('reports a cross-origin "Script error." that carries no error object by its message', () => {
    window.dispatchEvent(new ErrorEvent('error', { message: 'Script error.' }))
    expect(errors().map((event) => event.props)).toEqual([
      { message: 'Script error.', type: 'error', url: 'http://localhost/settings-account' },
    ])
  })

  it('reports an unhandled rejection, with a plain reason as its message', () => {
    // jsdom has no PromiseRejectionEvent: an Event carrying the reason is what the listener reads.
    const event = Object.assign(new Event('unhandledrejection'), { reason: 'quota exceeded' })
    window.dispatchEvent(event)
    expect(errors().map((e) => e.props)).toEqual([
      {
        message: 'quota exceeded',
        type: 'unhandledrejection',
        url: 'http://localhost/settings-account',
      },
    ])
  })

  it('cuts a long stack to 2000 characters', () => {
    const error = new Error('deep')
    error.stack = `Error: deep\n${'    at frame (app.js:1:1)\n'.repeat(200)}`
    window.dispatchEvent(new ErrorEvent('error', { error }))
    expect(errors()[0]?.props?.stack).toHaveLength(2000)
  })

  it('reports one error once, even when it reaches the window and a route error element', () => {
    const error = new Error('render failed')
    reportClientError(error, 'render')
    window.dispatchEvent(new ErrorEvent('error', { error }))
    expect(errors().map((event) => event.props!.type)).toEqual(['render'])
  })

  it('stops after 20 errors in a page, so an error every frame cannot flood the gateway', () => {
    for (let i = 0; i < 30; i += 1)
      window.dispatchEvent(new ErrorEvent('error', { error: new Error(`e${i}`) }))
    expect(errors()).toHaveLength(20)
  })

  it('reports a page chunk that failed after its retries, once', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {})
    const failure = new Error('Failed to fetch dynamically imported module')
    await expect(importWithRetry(() => Promise.reject(failure), 1, 1)).rejects.toBe(failure)
    reportClientError(failure, 'render')
    expect(errors().map((event) => event.props)).toEqual([
      expect.objectContaining({ message: failure.message, type: 'chunk_load' }),
    ])
  })

  it('stops listening once uninstalled', () => {
    uninstall()
    // Jest fails a test on an 'error' event that no listener of the page hears.
    const heard = jest.fn()
    window.addEventListener('error', heard)
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('late') }))
    window.removeEventListener('error', heard)
    expect(heard).toHaveBeenCalled()
    expect(errors()).toEqual([])
  })
})
