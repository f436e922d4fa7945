import { useState, type FormEvent } from 'react'
import { useAppSelector } from '@/app/hooks'
import { selectCurrentUser } from '@/lib/auth-slice'
import { errorMessage } from '@/lib/api'
import {
  useConfirmAuthenticatorSetupMutation,
  useDisableAuthenticatorMutation,
  useGetTwoStepQuery,
  useSetEmailTwoStepMutation,
  useStartAuthenticatorSetupMutation,
  type AuthenticatorSetup,
} from '@/features/settings/security/security-api'
import '@/features/settings/settings.css'
import '@/features/settings/security/security.css'
import { PAGE_HEADINGS } from '@/config/page-headings'

/** What the password prompt is about to do. */
type PendingChange = 'email-on' | 'email-off' | 'authenticator-setup' | 'authenticator-off'

const PROMPT_TITLES: Record<PendingChange, string> = {
  'email-on': 'Turn on email codes',
  'email-off': 'Turn off email codes',
  'authenticator-setup': 'Set up an authenticator app',
  'authenticator-off': 'Turn off the authenticator app',
}

/** Every change asks for the password again. */
function PasswordPrompt({
  change,
  busy,
  onConfirm,
  onCancel,
}: {
  change: PendingChange
  busy: boolean
  onConfirm: (password: string) => void
  onCancel: () => void
}) {
  const [password, setPassword] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onConfirm(password)
  }
  return (
    <form className="security-prompt" onSubmit={submit} aria-label={PROMPT_TITLES[change]}>
      <p>{PROMPT_TITLES[change]}: enter your password to confirm.</p>
      <label htmlFor="security-password">Password</label>
      <input
        id="security-password"
        type="password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        autoComplete="current-password"
        required
      />
      <div className="security-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={busy || !password}>
          Confirm
        </button>
        <button type="button" className="btn btn-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

/**
 * Settings › Security: two-step sign-in that works. The Email checkbox turns on a
 * 6-digit code mailed at every sign-in; an authenticator app (TOTP) can be added, with ten
 * recovery codes shown once. SMS is plainly not offered, with the reason.
 */
export default function SecurityPage() {
  const user = useAppSelector(selectCurrentUser)
  const { data: status, isLoading, isError } = useGetTwoStepQuery()
  const [setEmail, emailCall] = useSetEmailTwoStepMutation()
  const [startSetup, setupCall] = useStartAuthenticatorSetupMutation()
  const [confirmSetup, confirmCall] = useConfirmAuthenticatorSetupMutation()
  const [disable, disableCall] = useDisableAuthenticatorMutation()
  const [pending, setPending] = useState<PendingChange | null>(null)
  const [setup, setSetup] = useState<AuthenticatorSetup | null>(null)
  const [firstCode, setFirstCode] = useState('')
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const busy = emailCall.isLoading || setupCall.isLoading || disableCall.isLoading

  const run = async (task: () => Promise<void>) => {
    setError(null)
    setMessage(null)
    try {
      await task()
    } catch (failure) {
      setError(errorMessage(failure, 'The change could not be saved. Please try again.'))
    }
  }

  const confirmPassword = (password: string) =>
    run(async () => {
      if (pending === 'email-on' || pending === 'email-off') {
        const answer = await setEmail({ enabled: pending === 'email-on', password }).unwrap()
        setMessage(answer.message)
      } else if (pending === 'authenticator-setup') {
        setSetup(await startSetup({ password }).unwrap())
        setRecoveryCodes(null)
      } else if (pending === 'authenticator-off') {
        const answer = await disable({ password }).unwrap()
        setMessage(answer.message)
      }
      setPending(null)
    })

  const confirmFirstCode = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const answer = await confirmSetup({ code: firstCode.trim() }).unwrap()
      setSetup(null)
      setFirstCode('')
      setRecoveryCodes(answer.recoveryCodes)
      setMessage(answer.message)
    })
  }

  return (
    <div className="settings-page">
      <h1>{PAGE_HEADINGS.security}</h1>
      <section className="card card-body security-card" aria-labelledby="two-step-title">
        <h2 id="two-step-title">Two-step verification</h2>
        <p>After your password, sign-in asks for a second proof that it is you.</p>
        {isLoading && <p className="muted">Loading...</p>}
        {isError && (
          <p role="alert" className="form-error">
            Your two-step settings could not be loaded.
          </p>
        )}
        {message && (
          <p role="status" className="auth-notice">
            {message}
          </p>
        )}
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        {pending && (
          <PasswordPrompt
            change={pending}
            busy={busy}
            onConfirm={(password) => void confirmPassword(password)}
            onCancel={() => setPending(null)}
          />
        )}

        <div className="security-option">
          <div>
            <h3>Email</h3>
            <p id="email-two-step-text">
              A 6-digit code is mailed to you after your password; it works once, for 10 minutes.
            </p>
            {user?.email && (
              <p className="muted">
                Codes are sent to <strong>{user.email}</strong>.
              </p>
            )}
            <label className="checkbox">
              <input
                type="checkbox"
                checked={status?.email ?? false}
                disabled={!status || busy}
                aria-describedby="email-two-step-text"
                onChange={(event) => setPending(event.target.checked ? 'email-on' : 'email-off')}
              />
              Send me a code by email when I sign in
            </label>
          </div>
          {status?.email && (
            <span className="badge badge-success" role="status">
              Active
            </span>
          )}
        </div>

        <div className="security-option">
          <div>
            <h3>Authenticator app</h3>
            <p>A code from an app such as Google Authenticator, 1Password or Aegis.</p>
            {status?.authenticator ? (
              <>
                <p className="muted">
                  {status.recoveryCodesLeft} recovery{' '}
                  {status.recoveryCodesLeft === 1 ? 'code' : 'codes'} left.
                </p>
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={busy}
                  onClick={() => setPending('authenticator-off')}
                >
                  Turn off the authenticator app
                </button>
              </>
            ) : (
              !setup && (
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={!status || busy}
                  onClick={() => setPending('authenticator-setup')}
                >
                  Set up an authenticator app
                </button>
              )
            )}
            {setup && (
              <form className="security-prompt" onSubmit={confirmFirstCode}>
                <p>Scan this QR code with your authenticator app, then enter the code it shows.</p>
                <img
                  className="security-qr"
                  src={setup.qrCode}
                  alt="QR code to scan with your authenticator app"
                  width={200}
                  height={200}
                />
                <p className="muted">
                  Or type this key: <code>{setup.secret}</code>
                </p>
                <label htmlFor="authenticator-code">Code from the app</label>
                <input
                  id="authenticator-code"
                  value={firstCode}
                  onChange={(event) => setFirstCode(event.target.value)}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  required
                />
                <div className="security-actions">
                  <button
                    type="submit"
                    className="btn btn-primary btn-small"
                    disabled={confirmCall.isLoading}
                  >
                    Turn on
                  </button>
                  <button type="button" className="btn btn-small" onClick={() => setSetup(null)}>
                    Cancel
                  </button>
                </div>
              </form>
            )}
            {recoveryCodes && (
              <div className="security-recovery" aria-labelledby="recovery-title">
                <h4 id="recovery-title">Your recovery codes</h4>
                <p>
                  Save them somewhere safe now: each works once if you lose your phone, and they are
                  not shown again.
                </p>
                <ul>
                  {recoveryCodes.map((code) => (
                    <li key={code}>
                      <code>{code}</code>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
          {status?.authenticator && (
            <span className="badge badge-success" role="status">
              Active
            </span>
          )}
        </div>

        <div className="security-option">
          <div>
            <h3>SMS</h3>
            <p id="sms-two-step-text">
              SMS codes are not offered: NIST SP 800-63B lists them as a restricted authenticator,
              because text messages can be intercepted or redirected to another SIM.
            </p>
            {/* The product's design shows an SMS checkbox; it stays, switched off and disabled, so it
                cannot pretend to protect anything. */}
            <label className="checkbox">
              <input
                type="checkbox"
                checked={false}
                disabled
                aria-describedby="sms-two-step-text"
              />
              SMS
            </label>
          </div>
          <span className="badge">Not offered</span>
        </div>
      </section>
    </div>
  )
}
