import { useEffect, useState, type FormEvent } from 'react'
import { Navigate, useLocation, useNavigate } from 'react-router-dom'
import { Messages } from '@marketplace/contracts/validation'
import { paths } from '@/config/paths'
import {
  responseStatus,
  useConfirmSignupMutation,
  useResendConfirmationMutation,
} from '@/features/auth/auth-api'
import { errorMessage } from '@/lib/api'
import { FormField } from '@/components/ui/FormField'
import '@/features/auth/auth.css'

/** The verification redirect delay. */
export const VERIFIED_REDIRECT_MS = 2000

const m = Messages.verification

/** Which message a refused code shows. */
function verificationFailure(error: unknown): string {
  const status = responseStatus(error)
  if (status === null) return m.noServerResponse
  // 429 carries our "Too many attempts..." text, worth more than a bare "failed".
  if (status === 400 || status === 429) return errorMessage(error, m.failed)
  return m.failed
}

function emailFrom(state: unknown): string | null {
  if (!state || typeof state !== 'object' || !('email' in state)) return null
  const { email } = state as { email?: unknown }
  return typeof email === 'string' && email ? email : null
}

type Notice = { kind: 'success' | 'error'; text: string }

/** /verify "Email Verification". */
export default function VerifyPage() {
  const location = useLocation()
  const email = emailFrom(location.state)
  if (!email) return <Navigate to={paths.signup} replace />
  return <VerifyForm email={email} />
}

function VerifyForm({ email }: { email: string }) {
  const navigate = useNavigate()
  const [confirm, { isLoading: verifying }] = useConfirmSignupMutation()
  const [resend, { isLoading: resending }] = useResendConfirmationMutation()
  const [code, setCode] = useState('')
  const [notice, setNotice] = useState<Notice | null>(null)
  const [verified, setVerified] = useState(false)

  useEffect(() => {
    if (!verified) return
    const timer = setTimeout(
      () => navigate(paths.login, { state: { email } }),
      VERIFIED_REDIRECT_MS,
    )
    return () => clearTimeout(timer)
  }, [verified, navigate, email])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setNotice(null)
    try {
      await confirm({ email, code: code.trim() }).unwrap()
      setVerified(true)
      setNotice({ kind: 'success', text: m.verified })
    } catch (failure) {
      setNotice({ kind: 'error', text: verificationFailure(failure) })
    }
  }

  const resendCode = async () => {
    setNotice(null)
    try {
      await resend({ email }).unwrap()
      setNotice({ kind: 'success', text: m.resendSucceeded })
    } catch {
      setNotice({ kind: 'error', text: m.resendFailed })
    }
  }

  return (
    <section className="page-narrow auth-page" aria-labelledby="verify-title">
      <h1 id="verify-title">Email Verification</h1>
      <p className="muted">
        We sent a 6-digit code to <strong>{email}</strong>. Enter it below to activate your account.
      </p>
      {notice && (
        <p
          className={notice.kind === 'success' ? 'form-success' : 'form-error'}
          role={notice.kind === 'success' ? 'status' : 'alert'}
        >
          {notice.text}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <FormField id="verify-code" label="Verification code">
          <input
            id="verify-code"
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            disabled={verified}
          />
        </FormField>
        <div className="auth-actions">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={verified || verifying || code.trim() === ''}
          >
            Verify Email
          </button>
          <button
            type="button"
            className="btn"
            onClick={resendCode}
            disabled={verified || resending}
          >
            Resend Code
          </button>
        </div>
      </form>
    </section>
  )
}
