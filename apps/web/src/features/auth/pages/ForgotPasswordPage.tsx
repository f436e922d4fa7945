import { useState, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { Messages } from '@marketplace/contracts/validation'
import { paths } from '@/config/paths'
import {
  useConfirmPasswordResetMutation,
  useForgotPasswordMutation,
} from '@/features/auth/auth-api'
import { PasswordInput } from '@/features/auth/components/PasswordInput'
import { errorMessage } from '@/lib/api'
import { FormField, hintIdOf } from '@/components/ui/FormField'
import '@/features/auth/auth.css'

const m = Messages.forgotPassword

type Notice = { kind: 'success' | 'error'; text: string }

/**
 * /forgot-password: step 1 asks for the email and sends a
 * code; step 2 takes the code and the new password. Errors show the server's message or
 * the product's copy "An error occurred".
 */
export default function ForgotPasswordPage() {
  const [sendCode, { isLoading: sending }] = useForgotPasswordMutation()
  const [confirmReset, { isLoading: confirming }] = useConfirmPasswordResetMutation()
  const [step, setStep] = useState<'email' | 'reset' | 'done'>('email')
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [notice, setNotice] = useState<Notice | null>(null)

  const requestCode = async (event: FormEvent) => {
    event.preventDefault()
    setNotice(null)
    try {
      const answer = await sendCode({ email: email.trim() }).unwrap()
      setStep('reset')
      setNotice(answer?.message ? { kind: 'success', text: answer.message } : null)
    } catch (error) {
      setNotice({ kind: 'error', text: errorMessage(error, m.failed) })
    }
  }

  const reset = async (event: FormEvent) => {
    event.preventDefault()
    setNotice(null)
    try {
      await confirmReset({ email: email.trim(), code: code.trim(), newPassword }).unwrap()
      setStep('done')
      setNotice({ kind: 'success', text: m.changed })
    } catch (error) {
      setNotice({ kind: 'error', text: errorMessage(error, m.failed) })
    }
  }

  return (
    <section className="page-narrow auth-page" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Reset your password</h1>
      {notice && (
        <p
          className={notice.kind === 'success' ? 'form-success' : 'form-error'}
          role={notice.kind === 'success' ? 'status' : 'alert'}
        >
          {notice.text}
        </p>
      )}
      {step === 'email' && (
        <form onSubmit={requestCode} noValidate>
          <p className="muted">
            Enter the email of your account and we will send you a reset code.
          </p>
          <FormField id="forgot-email" label="Email">
            <input
              id="forgot-email"
              type="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              autoComplete="email"
              required
            />
          </FormField>
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={sending || email.trim() === ''}
          >
            send reset code
          </button>
        </form>
      )}
      {step === 'reset' && (
        <form onSubmit={reset} noValidate>
          <FormField id="forgot-code" label="Reset code">
            <input
              id="forgot-code"
              value={code}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
            />
          </FormField>
          <FormField
            id="forgot-new-password"
            label="New password"
            hint={Messages.auth.passwordRules}
          >
            <PasswordInput
              id="forgot-new-password"
              value={newPassword}
              onChange={(event) => setNewPassword(event.target.value)}
              autoComplete="new-password"
              aria-describedby={hintIdOf('forgot-new-password')}
              required
            />
          </FormField>
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={confirming || code.trim() === '' || newPassword === ''}
          >
            confirm password reset
          </button>
        </form>
      )}
      <p className="auth-alt">
        <Link to={paths.login}>back to login</Link>
      </p>
    </section>
  )
}
