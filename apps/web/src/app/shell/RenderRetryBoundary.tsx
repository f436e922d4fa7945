import { Component, type ErrorInfo, type ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import { reportClientError } from '@/lib/client-errors'
import { RENDER_RETRIES, RENDER_RETRY_DELAY_MS } from '@/lib/retry-import'

interface Props {
  children: ReactNode
  /** A new value (the page's path) starts over: leaving a failed page clears its message. */
  resetKey?: string
  retries?: number
  delayMs?: number
}

interface State {
  error: unknown
  /** Re-renders tried since the last render that worked. */
  attempts: number
  /** All retries failed: the way out is shown. */
  gaveUp: boolean
}

const FRESH: State = { error: null, attempts: 0, gaveUp: false }

class RetryBoundary extends Component<Props, State> {
  override state: State = FRESH
  private timer: ReturnType<typeof setTimeout> | undefined

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error }
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const retries = this.props.retries ?? RENDER_RETRIES
    if (this.state.attempts < retries) {
      clearTimeout(this.timer)
      this.timer = setTimeout(
        () => this.setState((state) => ({ error: null, attempts: state.attempts + 1 })),
        this.props.delayMs ?? RENDER_RETRY_DELAY_MS,
      )
      return
    }
    console.error('Maximum render retry attempts reached', error, info.componentStack)
    reportClientError(error, 'render')
    this.setState({ gaveUp: true })
  }

  override componentDidUpdate(previous: Props): void {
    if (previous.resetKey !== this.props.resetKey && this.state.error !== null) {
      this.startOver()
    } else if (this.state.error === null && this.state.attempts > 0) {
      // The retry rendered: a later failure gets its own retries.
      this.setState({ attempts: 0 })
    }
  }

  override componentWillUnmount(): void {
    clearTimeout(this.timer)
  }

  private startOver = () => {
    clearTimeout(this.timer)
    this.setState(FRESH)
  }

  // Another page starts over through resetKey; Home failing itself keeps its path.
  private goHome = () => {
    if (this.props.resetKey === paths.home) this.startOver()
  }

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children
    // Between retries: nothing, for at most a few hundred milliseconds.
    if (!this.state.gaveUp) return null
    return (
      <div className="page-narrow" role="alert">
        <h1>Something went wrong</h1>
        <p className="muted">This page could not be shown.</p>
        <div className="modal-actions">
          <Link className="btn" to={paths.home} onClick={this.goHome}>
            Return to Home
          </Link>
          <button type="button" className="btn btn-primary" onClick={this.startOver}>
            Retry
          </button>
        </div>
      </div>
    )
  }
}

/**
 * A rendering failure is retried up to 3 times, 100 ms apart, so a
 * transient one (a value not there yet, a race with a store update) recovers without the
 * user seeing anything. After the last try the failure is logged and reported to analytics
 * once, and the page shows a way out. A render that works starts the count over.
 */
export function RenderRetryBoundary(props: Props) {
  // A function component in front of the class: error boundaries can only be classes.
  return <RetryBoundary {...props} />
}
