import { useCallback, useState, type FormEvent } from 'react'
import { Messages, canSendSupportMessage } from '@marketplace/contracts/validation'
import { useAppSelector } from '@/app/hooks'
import { Modal } from '@/components/ui/Modal'
import { useIsMobile } from '@/hooks/use-is-mobile'
import { selectCurrentUser } from '@/lib/auth-slice'
import { useSendSupportMessageMutation } from '@/lib/support-api'
import { track } from '@/lib/analytics'
import { errorMessage, errorStatus } from '@/lib/api'
import { useTrackOnMount } from '@/lib/use-analytics'
import { FormField, hintIdOf } from '@/components/ui/FormField'
import '@/features/settings/settings.css'
import '@/features/settings/help-support/help-support.css'
import { PAGE_HEADINGS } from '@/config/page-headings'

/** A message to support, sent from the signed-in user's address. */
export default function HelpSupportPage() {
  const user = useAppSelector(selectCurrentUser)
  const isMobile = useIsMobile()
  const [message, setMessage] = useState('')
  const [sent, setSent] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [send, { isLoading }] = useSendSupportMessageMutation()
  const closeSent = useCallback(() => setSent(false), [])
  useTrackOnMount('help_viewed')

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    // An empty message is not sent, and nothing is shown.
    if (!canSendSupportMessage(message) || isLoading) return
    setProblem(null)
    try {
      await send({ email: user?.email ?? '', message }).unwrap()
      setMessage('')
      setSent(true)
      track('support_ticket_created', { channel: 'support' })
    } catch (failure) {
      console.error('Support message not sent', failure)
      track('support_ticket_failed', { channel: 'support', status: errorStatus(failure) })
      // Ours: the text stays in the field, and the reason is shown (a rate limit, a mail outage).
      setProblem(errorMessage(failure, Messages.support.sendFailed))
    }
  }

  return (
    <div className="settings-page help-support-page">
      <h1>{PAGE_HEADINGS.helpSupport}</h1>
      <form className="card card-body" onSubmit={submit}>
        <FormField
          id="support-message"
          label="Write to us"
          hint={user?.email && <>We will answer you at {user.email}.</>}
        >
          <textarea
            id="support-message"
            aria-describedby={user?.email ? hintIdOf('support-message') : undefined}
            rows={isMobile ? 10 : 25}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
          />
        </FormField>
        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={isLoading}>
          {isLoading ? 'Sending...' : 'Send your message to us'}
        </button>
      </form>
      {sent && (
        <Modal title={Messages.support.sentTitle} onClose={closeSent}>
          <p>{Messages.support.sent}</p>
          <div className="modal-actions">
            <button type="button" className="btn btn-primary" onClick={closeSent}>
              OK
            </button>
          </div>
        </Modal>
      )}
    </div>
  )
}
