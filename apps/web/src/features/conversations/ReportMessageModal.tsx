import { useId, useState, type FormEvent } from 'react'
import type { MessageView } from '@marketplace/contracts/api'
import type { ReportReason } from '@marketplace/contracts/marketplace'
import { Messages, validateReport } from '@marketplace/contracts/validation'
import { ReportReasonFields } from '@/components/ui/ReportReasonFields'
import { Modal } from '@/components/ui/Modal'
import { errorMessage, errorStatus } from '@/lib/api'
import { useReportMessageMutation } from '@/features/conversations/conversations-api'

export const ALREADY_REPORTED_MESSAGE = 'You have already reported this message'
const THANKS = 'Thank you for your report. Our team will review it within 24 hours.'

function reportErrorText(error: unknown): string {
  if (errorStatus(error) === 409) return errorMessage(error, ALREADY_REPORTED_MESSAGE)
  return errorMessage(error, Messages.reports.failed)
}

/**
 * Report one of the other party's messages with the post reasons, as the
 * report modal of a post looks: a reason, optional details, the same thanks.
 */
export function ReportMessageModal({
  conversationId,
  message,
  senderName,
  onClose,
}: {
  conversationId: string
  message: MessageView
  senderName: string
  onClose: () => void
}) {
  const [report, { isLoading }] = useReportMessageMutation()
  const [reason, setReason] = useState<ReportReason | null>(null)
  const [details, setDetails] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState(false)
  const detailsId = useId()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = validateReport({ type: reason, description: details })
    if (problem || !reason) {
      setError(problem ?? Messages.reports.reasonRequired)
      return
    }
    setError(null)
    try {
      await report({
        conversationId,
        messageId: message._id,
        type: reason,
        description: details.trim() || null,
      }).unwrap()
      setSent(true)
    } catch (failure) {
      setError(reportErrorText(failure))
    }
  }

  if (sent) {
    return (
      <Modal title="Report message" onClose={onClose}>
        <p className="form-success" role="status">
          {THANKS}
        </p>
        <div className="modal-actions">
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Close
          </button>
        </div>
      </Modal>
    )
  }
  return (
    <Modal title="Report message" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p className="muted">Why are you reporting this message from {senderName}?</p>
        <blockquote className="report-message-quote">{message.text}</blockquote>
        <ReportReasonFields
          name="message-report-reason"
          reason={reason}
          onReasonChange={(value) => {
            setReason(value)
            setError(null)
          }}
          details={details}
          onDetailsChange={setDetails}
          detailsId={detailsId}
          rows={3}
        />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose} disabled={isLoading}>
            Cancel
          </button>
          <button type="submit" className="btn btn-danger" disabled={isLoading}>
            {isLoading ? 'Submitting...' : 'Submit report'}
          </button>
        </div>
      </form>
    </Modal>
  )
}
