import { useState } from 'react'
import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Link } from 'react-router-dom'
import { RenderRetryBoundary } from '@/app/shell/RenderRetryBoundary'
import { recordAnalytics } from '@/test/analytics'
import { renderRoutes } from '@/test/helpers'

/**
 * A child that fails its first `failures` tries: the first render and the retries, 100 ms
 * apart (fake timers move the clock). Counted by time rather than renders because React
 * itself renders a failing tree a second time before it gives it to the boundary.
 */
function flakyChild(failures: number) {
  const start = Date.now()
  const counter = { renders: 0, healed: false }
  function Flaky() {
    counter.renders += 1
    const attempt = Math.floor((Date.now() - start) / 100)
    if (!counter.healed && attempt < failures) throw new Error(`render failure ${attempt + 1}`)
    return <p>page content</p>
  }
  return { Flaky, counter }
}

function renderInBoundary(child: React.ReactNode, at = '/page') {
  return renderRoutes(
    [
      {
        path: '/page',
        element: <RenderRetryBoundary resetKey="/page">{child}</RenderRetryBoundary>,
      },
      {
        path: '/',
        element: (
          <RenderRetryBoundary resetKey="/">
            <p>home page</p>
            <Link to="/page">to the page</Link>
          </RenderRetryBoundary>
        ),
      },
    ],
    { at },
  )
}

/** Lets the boundary's 100 ms timer run once. */
const nextRetry = () => act(() => jest.advanceTimersByTime(100))

describe('render retry boundary (3 retries, 100 ms apart)', () => {
  let analytics: ReturnType<typeof recordAnalytics>
  let consoleError: jest.SpyInstance

  beforeEach(() => {
    jest.useFakeTimers()
    analytics = recordAnalytics()
    // React and the boundary log every failure; the tests read what they need.
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => {})
  })
  afterEach(() => {
    analytics.stop()
    consoleError.mockRestore()
    jest.useRealTimers()
  })

  const clientErrors = () => analytics.events().filter((event) => event.name === 'client_error')
  const gaveUpLogs = () =>
    consoleError.mock.calls.filter(
      ([message]) => message === 'Maximum render retry attempts reached',
    )

  it.each([1, 2, 3])(
    'a child that throws on %i tries recovers without the user seeing a message or anything reported',
    async (failures) => {
      const { Flaky } = flakyChild(failures)
      renderInBoundary(<Flaky />)
      for (let retry = 0; retry < failures; retry += 1) {
        expect(screen.queryByText('page content')).not.toBeInTheDocument()
        expect(screen.queryByRole('alert')).not.toBeInTheDocument()
        await nextRetry()
      }
      expect(screen.getByText('page content')).toBeInTheDocument()
      expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument()
      expect(clientErrors()).toEqual([])
      expect(gaveUpLogs()).toEqual([])
    },
  )

  it('waits 100 ms before each retry', async () => {
    const { Flaky, counter } = flakyChild(1)
    renderInBoundary(<Flaky />)
    const rendersAfterFailure = counter.renders
    // Healed at once, yet nothing renders before the delay.
    counter.healed = true
    await act(() => jest.advanceTimersByTime(99))
    expect(counter.renders).toBe(rendersAfterFailure)
    expect(screen.queryByText('page content')).not.toBeInTheDocument()
    await act(() => jest.advanceTimersByTime(1))
    expect(screen.getByText('page content')).toBeInTheDocument()
  })

  it('after a child throws on the first render and on all 3 retries, shows a way out, logs and reports once', async () => {
    const { Flaky, counter } = flakyChild(4)
    renderInBoundary(<Flaky />)
    await nextRetry()
    await nextRetry()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    await nextRetry()
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong')
    // No fourth retry, though the child would now render.
    const rendersAtGiveUp = counter.renders
    await act(() => jest.advanceTimersByTime(1000))
    expect(counter.renders).toBe(rendersAtGiveUp)
    expect(screen.queryByText('page content')).not.toBeInTheDocument()

    expect(gaveUpLogs()).toHaveLength(1)
    const reported = clientErrors()
    expect(reported).toHaveLength(1)
    expect(reported[0]!.props).toMatchObject({
      type: 'render',
      name: 'Error',
      message: 'render failure 4',
    })
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/')
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument()
  })

  it('Retry renders the page again, with 3 new retries', async () => {
    const { Flaky, counter } = flakyChild(Number.POSITIVE_INFINITY)
    renderInBoundary(<Flaky />)
    for (let retry = 0; retry < 3; retry += 1) await nextRetry()
    expect(screen.getByRole('alert')).toBeInTheDocument()
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime })

    // Still failing: the message goes while the 3 new retries run, then comes back.
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    for (let retry = 0; retry < 3; retry += 1) await nextRetry()
    expect(screen.getByRole('alert')).toBeInTheDocument()
    expect(clientErrors()).toHaveLength(2)

    // The cause went away meanwhile (a value arrived): Retry shows the page.
    counter.healed = true
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    expect(screen.getByText('page content')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('leaving the failed page for Home clears the message', async () => {
    const { Flaky } = flakyChild(Number.POSITIVE_INFINITY)
    renderInBoundary(<Flaky />)
    for (let retry = 0; retry < 3; retry += 1) await nextRetry()
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime })
    await user.click(screen.getByRole('link', { name: 'Return to Home' }))
    expect(screen.getByText('home page')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('a failure after a render that worked gets its own 3 retries', async () => {
    let broken = false
    function Switchable({ tick }: { tick: number }) {
      if (broken) throw new Error(`broken at ${tick}`)
      return <p>page content {tick}</p>
    }
    function Harness() {
      const [tick, setTick] = useState(0)
      return (
        <>
          <button type="button" onClick={() => setTick((value) => value + 1)}>
            refresh
          </button>
          <RenderRetryBoundary resetKey="/page">
            <Switchable tick={tick} />
          </RenderRetryBoundary>
        </>
      )
    }
    renderRoutes([{ path: '/page', element: <Harness /> }], { at: '/page' })
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime })
    for (const tick of [1, 2]) {
      // A new render of the page (its data changed) fails, and the first 2 retries too.
      broken = true
      await user.click(screen.getByRole('button', { name: 'refresh' }))
      await nextRetry()
      await nextRetry()
      expect(screen.queryByRole('alert')).not.toBeInTheDocument()
      broken = false
      await nextRetry()
      expect(screen.getByText(`page content ${tick}`)).toBeInTheDocument()
    }
    expect(clientErrors()).toEqual([])
  })
})
