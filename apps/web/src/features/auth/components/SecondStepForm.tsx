import { useState, type FormEvent } from 'react'
import type { LoginAnswer } from '@marketplace/contracts/api'
import {
  useSendSignInCodeMutation,
  useVerifySecondStepMutation,
  type SecondStepMethod,
  type TwoStepChallenge,
} from '@/features/auth/auth-api'
import { errorMessage } from '@/lib/api'
import { FormField } from '@/components/ui/FormField'

const PROMPTS: Record<SecondStepMethod, { label: string; hint: string }> = {
  authenticator: {
    label: 'Code from your authenticator app',
    hint: 'The 6 digits your authenticator app shows for Marketplace.',
  },
  email: {
    label: 'Code from your email',
    hint: 'We sent a 6-digit code to your email. It is valid for 10 minutes.',
  },
  recovery: {
    label: 'Recovery code',
    hint: 'One of the recovery codes you saved when you set up the authenticator app.',
  },
}

/**
 * The second step of a login with two-step sign-in on: the authenticator by
 * default when it is on, e-mail on request, a recovery code always. The session starts only
 * when the server accepts the code; `onSignedIn` gets the login's answer.
 */
export function SecondStepForm({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: TwoStepChallenge
  onSignedIn: (answer: LoginAnswer) => void
  onRestart: () => void
}) {
  const [method, setMethod] = useState<SecondStepMethod>(challenge.methods[0] ?? 'recovery')
  const [emailSent, setEmailSent] = useState(challenge.emailCodeSent)
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [verify, { isLoading: verifying }] = useVerifySecondStepMutation()
  const [sendCode, { isLoading: sending }] = useSendSignInCodeMutation()
  const prompt = PROMPTS[method]

  const choose = async (next: SecondStepMethod) => {
    setMethod(next)
    setCode('')
    setError(null)
    if (next === 'email' && !emailSent) await mail()
  }

  const mail = async () => {
    setError(null)
    try {
      const answer = await sendCode({ challengeId: challenge.challengeId }).unwrap()
      setEmailSent(true)
      setNotice(answer.message)
    } catch (failure) {
      setError(errorMessage(failure, 'The code could not be sent. Please try again.'))
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    try {
      const answer = await verify({
        challengeId: challenge.challengeId,
        method,
        code: code.trim(),
      }).unwrap()
      onSignedIn(answer)
    } catch (failure) {
      setError(errorMessage(failure, 'Sign-in failed. Please try again.'))
    }
  }

  const others = [...challenge.methods, 'recovery' as const].filter((m) => m !== method)
  return (
    <section className="page-narrow auth-page" aria-labelledby="second-step-title">
      <h1 id="second-step-title">Two-step verification</h1>
      {notice && (
        <p className="auth-notice" role="status">
          {notice}
        </p>
      )}
      {error && (
        <div className="form-error" role="alert">
          <p className="auth-failure-text">{error}</p>
        </div>
      )}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <FormField id="second-step-code" label={prompt.label} hint={prompt.hint}>
          <input
            id="second-step-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            inputMode={method === 'recovery' ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            autoFocus
            required
          />
        </FormField>
        <button type="submit" className="btn btn-primary btn-block" disabled={verifying}>
          {verifying ? 'Verifying...' : 'Verify'}
        </button>
      </form>
      <div className="auth-alt">
        {method === 'email' && emailSent && (
          <button
            type="button"
            className="btn btn-small"
            disabled={sending}
            onClick={() => void mail()}
          >
            Send a new code
          </button>
        )}
        {others.map((other) => (
          <button
            key={other}
            type="button"
            className="btn btn-small"
            disabled={sending}
            onClick={() => void choose(other)}
          >
            {other === 'authenticator'
              ? 'Use my authenticator app'
              : other === 'email'
                ? 'Email me a code'
                : 'Use a recovery code'}
          </button>
        ))}
        <button type="button" className="btn btn-small" onClick={onRestart}>
          Back to log in
        </button>
      </div>
    </section>
  )
}
