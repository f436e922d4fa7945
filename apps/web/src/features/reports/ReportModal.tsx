import { useCloseModal } from '@/app/modals/use-close-modal'
import { useEffect, useId, useState, type FormEvent } from 'react'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalClosed } from '@/app/ui-slice'
import { selectIsLoggedIn } from '@/lib/auth-slice'
import { LoginPrompt } from '@/app/modals/LoginPrompt'
import { personName } from '@/lib/person-display'
import { useReportPersonMutation, useReportPostMutation } from '@/features/reports/reports-api'
import { Modal } from '@/components/ui/Modal'
import { errorMessage, errorStatus } from '@/lib/api'
import type { JobPost } from '@marketplace/contracts/api'
import type { ShownPerson } from '@/lib/entities-api'
import type { ReportReason } from '@marketplace/contracts/marketplace'
import { Messages, validateReport } from '@marketplace/contracts/validation'
import { ReportReasonFields } from '@/components/ui/ReportReasonFields'

export type ReportTarget = { kind: 'post'; post: JobPost } | { kind: 'person'; person: ShownPerson }

/** How long the thank-you stays before the modal closes by itself. */
export const REPORT_THANKS_MS = 2000

/** The server's answer, turned into the text a person reads. */
export function reportErrorText(error: unknown, kind: ReportTarget['kind']): string {
  const status = errorStatus(error)
  if (status === 409) {
    return kind === 'post'
      ? Messages.reports.alreadyReportedPost
      : Messages.reports.alreadyReportedPerson
  }
  const message = errorMessage(error, Messages.reports.failed)
  if (status === 400 && message === Messages.reports.cannotReportYourselfServer) {
    return Messages.reports.cannotReportYourself
  }
  return message
}

/** Report a post or a person: a reason, optional details. */
export default function ReportModal({ target }: { target: ReportTarget }) {
  const dispatch = useAppDispatch()
  const loggedIn = useAppSelector(selectIsLoggedIn)
  const [reportPost, postState] = useReportPostMutation()
  const [reportPerson, personState] = useReportPersonMutation()
  const [reason, setReason] = useState<ReportReason | null>(null)
  const [details, setDetails] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState(false)
  const detailsId = useId()
  const close = useCloseModal()
  const busy = postState.isLoading || personState.isLoading
  const subject =
    target.kind === 'post' ? `"${target.post.title}"` : personName(target.person) || 'this person'

  useEffect(() => {
    if (!sent) return
    const timer = setTimeout(() => dispatch(modalClosed()), REPORT_THANKS_MS)
    return () => clearTimeout(timer)
  }, [sent, dispatch])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = validateReport({ type: reason, description: details })
    if (problem || !reason) {
      setError(problem ?? Messages.reports.reasonRequired)
      return
    }
    setError(null)
    const description = details.trim()
    try {
      if (target.kind === 'post') {
        await reportPost({ postId: target.post._id, type: reason, description }).unwrap()
      } else {
        await reportPerson({ reportedId: target.person._id, type: reason, description }).unwrap()
      }
      setSent(true)
    } catch (failure) {
      setError(reportErrorText(failure, target.kind))
    }
  }

  const title = target.kind === 'post' ? 'Report post' : 'Report person'
  if (!loggedIn) {
    return (
      <Modal title={title} onClose={close}>
        <LoginPrompt message="Please log in to report content." />
      </Modal>
    )
  }
  if (sent) {
    return (
      <Modal title={title} onClose={close}>
        <p className="form-success" role="status">
          Thank you for your report. Our team will review it within 24 hours.
        </p>
      </Modal>
    )
  }
  return (
    <Modal title={title} onClose={close}>
      <form className="report-form" onSubmit={submit} noValidate>
        <p className="muted">Why are you reporting {subject}?</p>
        <ReportReasonFields
          name="report-reason"
          reason={reason}
          onReasonChange={(value) => {
            setReason(value)
            setError(null)
          }}
          details={details}
          onDetailsChange={setDetails}
          detailsId={detailsId}
        />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={close} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-danger" disabled={busy}>
            {busy ? 'Submitting...' : 'Submit report'}
          </button>
        </div>
      </form>
    </Modal>
  )
}
