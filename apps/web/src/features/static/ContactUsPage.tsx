import { useState, type FormEvent } from 'react'
import { Messages, canSendSupportMessage } from '@marketplace/contracts/validation'
import { useAppSelector } from '@/app/hooks'
import { selectCurrentUser } from '@/lib/auth-slice'
import { useSendSupportMessageMutation } from '@/lib/support-api'
import { InfoTooltip } from '@/components/ui/InfoTooltip'
import { track } from '@/lib/analytics'
import { errorMessage, errorStatus } from '@/lib/api'
import { FormField } from '@/components/ui/FormField'
import '@/features/static/static.css'

const TOOLTIP =
  'Leave the email address we should answer. We read every message and usually reply within a day. To report a post or a person, use the Report button on it.'

/** /contact-us: open to guests; the server limits messages per address. */
export default function ContactUsPage() {
  const user = useAppSelector(selectCurrentUser)
  const [email, setEmail] = useState(user?.email ?? '')
  const [message, setMessage] = useState('')
  const [sent, setSent] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [send, { isLoading }] = useSendSupportMessageMutation()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    // An empty message is not sent, and nothing is shown.
    if (!canSendSupportMessage(message) || isLoading) return
    setProblem(null)
    setSent(null)
    try {
      const answer = await send({ email: email.trim(), message }).unwrap()
      setMessage('')
      setSent(answer?.message || Messages.support.sent)
      track('support_ticket_created', { channel: 'contact' })
    } catch (failure) {
      console.error('Contact message not sent', failure)
      track('support_ticket_failed', { channel: 'contact', status: errorStatus(failure) })
      setProblem(errorMessage(failure, Messages.support.sendFailed))
    }
  }

  return (
    <article className="static-page">
      <h1>Contact Us</h1>
      <p>
        A question about the marketplace, a problem with your account, or an idea to make it better?
        Write to us below.
      </p>
      <form className="card card-body contact-form" onSubmit={submit}>
        <h2>
          Send us a message
          <InfoTooltip text={TOOLTIP} label="How we answer" />
        </h2>
        <FormField id="contact-email" label="Your email">
          <input
            id="contact-email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </FormField>
        <FormField id="contact-message" label="Your message">
          <textarea
            id="contact-message"
            rows={25}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
          />
        </FormField>
        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
        {sent && (
          <p className="form-success" role="status">
            {sent}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={isLoading}>
          {isLoading ? 'Sending...' : 'Send your message to us'}
        </button>
      </form>
    </article>
  )
}
