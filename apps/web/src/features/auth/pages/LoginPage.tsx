import { useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import type { LoginAnswer } from '@marketplace/contracts/api'
import { Messages, normalizeEmail } from '@marketplace/contracts/validation'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { paths } from '@/config/paths'
import {
  errorCode,
  isTwoStepChallenge,
  responseStatus,
  type TwoStepChallenge,
  useDirectLoginMutation,
  useKeepAccountMutation,
} from '@/features/auth/auth-api'
import { credentialsReceived, selectSessionEndReason } from '@/lib/auth-slice'
import { PasswordInput } from '@/features/auth/components/PasswordInput'
import { SecondStepForm } from '@/features/auth/components/SecondStepForm'
import { errorMessage } from '@/lib/api'
import { writePersistFlag } from '@/lib/persist'
import { SESSION_ENDED_MESSAGES } from '@/lib/session-expiry'
import { FormField } from '@/components/ui/FormField'
import '@/features/auth/auth.css'

const m = Messages.login

/** A refusal the person can act on: verify the address, or cancel the account's deletion. */
type Failure = { text: string; action?: 'verify' | 'keepAccount' }

/** Which message a refused login shows (docs/identity.md, docs/people.md). */
function loginFailure(error: unknown): Failure {
  const status = responseStatus(error)
  if (status === null) return { text: m.noServerResponse }
  if (status === 400) return { text: m.missingCredentials }
  if (status === 401) return { text: m.invalidCredentials }
  if (status === 404) return { text: m.userNotFound }
  const code = errorCode(error)
  if (status === 403 && code === 'EMAIL_NOT_VERIFIED') {
    return { text: errorMessage(error, Messages.auth.emailNotVerified), action: 'verify' }
  }
  if (status === 403 && code === 'ACCOUNT_DELETION_PENDING') {
    return {
      text: errorMessage(error, Messages.auth.accountDeletionPending),
      action: 'keepAccount',
    }
  }
  // Our own refusals (rate limit, grace period over) carry a sentence worth reading.
  if (status === 429 || code === 'DELETION_GRACE_OVER')
    return { text: errorMessage(error, m.failed) }
  return { text: m.failed }
}

/** Where to go after login: the page the guard sent the person away from, else home. */
function destinationOf(state: unknown): string {
  if (!state || typeof state !== 'object' || !('from' in state)) return paths.home
  const from = (state as { from?: unknown }).from
  if (typeof from === 'string' && from.startsWith('/')) return from
  if (from && typeof from === 'object' && 'pathname' in from) {
    const {
      pathname,
      search = '',
      hash = '',
    } = from as {
      pathname?: unknown
      search?: unknown
      hash?: unknown
    }
    if (typeof pathname === 'string' && pathname.startsWith('/')) {
      return `${pathname}${typeof search === 'string' ? search : ''}${typeof hash === 'string' ? hash : ''}`
    }
  }
  return paths.home
}

function emailFrom(state: unknown): string {
  if (!state || typeof state !== 'object' || !('email' in state)) return ''
  const { email } = state as { email?: unknown }
  return typeof email === 'string' ? email : ''
}

/** /login "Log in". */
export default function LoginPage() {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const location = useLocation()
  const [directLogin, { isLoading: loggingIn }] = useDirectLoginMutation()
  const [keepAccount, { isLoading: keeping }] = useKeepAccountMutation()
  const [email, setEmail] = useState(() => emailFrom(location.state))
  const [password, setPassword] = useState('')
  const [keepSignedIn, setKeepSignedIn] = useState(false)
  const [failure, setFailure] = useState<Failure | null>(null)
  // Two-step sign-in: the password was right, the session waits for the second step.
  const [challenge, setChallenge] = useState<TwoStepChallenge | null>(null)
  const busy = loggingIn || keeping
  // A session that ended by itself: why, until the user logs in again.
  const sessionEnd = useAppSelector(selectSessionEndReason)

  const signIn = async (call: typeof directLogin | typeof keepAccount) => {
    setFailure(null)
    let answer: LoginAnswer | TwoStepChallenge
    try {
      answer = await call({ email: email.trim(), password, persist: keepSignedIn }).unwrap()
    } catch (error) {
      setFailure(loginFailure(error))
      return
    }
    if (isTwoStepChallenge(answer)) {
      setChallenge(answer)
      return
    }
    signedIn(answer)
  }

  /** A session answered (by the login or its second step): keep it and go on. */
  const signedIn = (answer: LoginAnswer) => {
    // An answer without user or token is an invalid login.
    if (!answer?.user || !answer.accessToken) {
      setFailure({ text: m.invalidCredentials })
      return
    }
    const user = { ...answer.user, roles: answer.user.roles ?? [] }
    // The flag first: whatever follows the new session reads the choice made for it.
    writePersistFlag(keepSignedIn)
    dispatch(credentialsReceived({ user, accessToken: answer.accessToken }))
    navigate(destinationOf(location.state), { replace: true })
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void signIn(directLogin)
  }

  if (challenge) {
    return (
      <SecondStepForm
        challenge={challenge}
        onSignedIn={signedIn}
        onRestart={() => {
          setChallenge(null)
          setPassword('')
        }}
      />
    )
  }

  return (
    <section className="page-narrow auth-page" aria-labelledby="login-title">
      <h1 id="login-title">Log in</h1>
      {sessionEnd && (
        <p className="auth-notice" role="status">
          {SESSION_ENDED_MESSAGES[sessionEnd]}
        </p>
      )}
      {failure && (
        <div className="form-error" role="alert">
          <p className="auth-failure-text">{failure.text}</p>
          {failure.action === 'verify' && (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => navigate(paths.verify, { state: { email: normalizeEmail(email) } })}
            >
              Verify my email
            </button>
          )}
          {failure.action === 'keepAccount' && (
            <button
              type="button"
              className="btn btn-small"
              disabled={busy}
              onClick={() => void signIn(keepAccount)}
            >
              {Messages.auth.keepAccountButton}
            </button>
          )}
        </div>
      )}
      <form onSubmit={submit} noValidate>
        <FormField id="login-email" label="Email">
          <input
            id="login-email"
            type="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value)
              setFailure(null)
            }}
            autoComplete="email"
            required
          />
        </FormField>
        <FormField id="login-password" label="Password">
          <PasswordInput
            id="login-password"
            value={password}
            onChange={(event) => {
              setPassword(event.target.value)
              setFailure(null)
            }}
            autoComplete="current-password"
            required
          />
        </FormField>
        <div className="auth-between">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={keepSignedIn}
              onChange={(event) => setKeepSignedIn(event.target.checked)}
            />
            Keep me signed in
          </label>
          <Link to={paths.forgotPassword}>Forgot Password?</Link>
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {loggingIn ? 'Logging in...' : 'Log in'}
        </button>
      </form>
      <p className="auth-alt">
        New here? <Link to={paths.signup}>Create an account</Link>
      </p>
    </section>
  )
}
