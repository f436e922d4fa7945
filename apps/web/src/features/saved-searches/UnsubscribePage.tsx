import { useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { paths } from '@/config/paths'
import { errorMessage } from '@/lib/api'
import { useUnsubscribeSavedSearchMutation } from './saved-searches-api'
import './saved-searches.css'

const FAILED = 'Something went wrong. Please try again.'

/**
 * Where a saved search's e-mail links ("Stop these e-mails"). Opening the page changes
 * nothing (mail scanners open links); the button stops the e-mails, without signing in: the
 * link's signed token is the proof. Mail clients use the List-Unsubscribe header instead.
 */
export default function UnsubscribePage() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [unsubscribe, { isLoading }] = useUnsubscribeSavedSearchMutation()
  const [done, setDone] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  const confirm = async () => {
    setProblem(null)
    try {
      setDone((await unsubscribe(token).unwrap()).name)
    } catch (failure) {
      setProblem(errorMessage(failure, FAILED))
    }
  }

  return (
    <div className="page unsubscribe-page">
      <h1>Stop e-mails for a saved search</h1>
      {done === null ? (
        <>
          <p>You will still see its new posts in your notifications.</p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={isLoading || token === ''}
            onClick={() => void confirm()}
          >
            Stop these e-mails
          </button>
        </>
      ) : (
        <p role="status">
          You will get no more e-mails for &ldquo;{done}&rdquo;. You can change this in{' '}
          <Link to={paths.settings.savedSearches}>Settings, Saved searches</Link>.
        </p>
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  )
}
