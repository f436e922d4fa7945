import { useEffect, useState } from 'react'
import type { ModerationReport } from '@marketplace/contracts/api'
import { useAppDispatch } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { personName, skillsText } from '@/lib/person-display'
import { ConfirmModal } from '@/components/ui/Modal'
import { errorMessage } from '@/lib/api'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import { Picture } from '@/components/ui/Picture'
import {
  useGetModerationQueueQuery,
  useResolveReportMutation,
  type ModerationAction,
} from './moderation-api'
import { ReportedMessage } from './ReportedMessage'
import { reviewDeadline } from './review-deadline'
import '@/components/ui/list-page.css'
import './moderation.css'

// Our own copy: the queue's texts beyond its empty state, the only one the product gives.
const LOAD_FAILED = 'Failed to load the reports. Please try again later.'
const ACTION_FAILED = 'Failed to update the report. Please try again.'

/** The label of what a report is about, for the confirmation. */
function targetTitle(report: ModerationReport): string {
  const { target } = report
  if (!target) return `this ${report.targetType}`
  if ('post' in target) return target.post.title
  if ('message' in target) return `the message from ${target.message.sender.name}`
  return personName(target.person)
}

/** What a take-down does, in the confirmation: a message stays in its conversation, hidden. */
function takeDownQuestion(report: ModerationReport): string {
  if (report.targetType === 'message') {
    return `Take down ${targetTitle(report)}? It will be hidden from both people in the conversation, its sender will be told, and every open report on it will be closed.`
  }
  return `Take down "${targetTitle(report)}"? It will be hidden from everyone, and every open report on it will be closed.`
}

/** The report's age: "5 h ago", or "less than an hour ago". */
function reportedAgo(createdAt: string, now: number): string {
  const hours = Math.floor((now - Date.parse(createdAt)) / (60 * 60 * 1000))
  return hours < 1 ? 'less than an hour ago' : `${hours} h ago`
}

function useNow(intervalMs = 60_000) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}

function ReportedContent({ report }: { report: ModerationReport }) {
  const dispatch = useAppDispatch()
  const { target } = report
  if (!target) {
    return <p className="muted">The reported {report.targetType} no longer exists.</p>
  }
  if ('message' in target) return <ReportedMessage message={target.message} />
  if ('post' in target) {
    const { post } = target
    return (
      <div className="moderation-target">
        <Picture
          picture={post.jobPicture}
          use="avatar"
          sizes="72px"
          alt=""
          className="moderation-target-picture"
        />
        <div>
          <p className="moderation-target-kind">Post</p>
          <button
            type="button"
            className="link-btn"
            onClick={() => dispatch(modalOpened({ kind: 'postDetails', post }))}
          >
            {post.title}
          </button>
          {post.location && <p className="muted">{post.location}</p>}
          {post.infos && <p className="moderation-target-infos">{post.infos}</p>}
        </div>
      </div>
    )
  }
  const { person } = target
  const skills = skillsText(person.skills)
  return (
    <div className="moderation-target">
      <Picture
        picture={person.profilePicture}
        placeholder={DEFAULT_PROFILE_PICTURE}
        use="avatar"
        sizes="72px"
        alt=""
        className="moderation-target-picture round"
      />
      <div>
        <p className="moderation-target-kind">Person</p>
        <button
          type="button"
          className="link-btn"
          onClick={() => dispatch(modalOpened({ kind: 'workerDetails', person }))}
        >
          {personName(person)}
        </button>
        {person.title && <p className="muted">{person.title}</p>}
        {skills && <p className="muted">{skills}</p>}
        {person.infos && <p className="moderation-target-infos">{person.infos}</p>}
      </div>
    </div>
  )
}

/**
 * Moderation queue: open reports of posts, people and messages, oldest first, each against
 * the 24-hour promise.
 */
export default function ModerationPage() {
  const [page, setPage] = useState(1)
  const { data, isLoading, isError, isFetching, refetch } = useGetModerationQueueQuery({ page })
  const [resolve, resolveState] = useResolveReportMutation()
  const now = useNow()
  const [busyId, setBusyId] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [takingDown, setTakingDown] = useState<ModerationReport | null>(null)
  const [takeDownError, setTakeDownError] = useState<string | null>(null)

  const act = async (report: ModerationReport, action: ModerationAction) => {
    setBusyId(report._id)
    setError(null)
    try {
      await resolve({ id: report._id, action }).unwrap()
      return null
    } catch (failure) {
      // A 409 (closed by another moderator) still refreshes the list.
      refetch()
      return errorMessage(failure, ACTION_FAILED)
    } finally {
      setBusyId(null)
    }
  }

  const dismiss = async (report: ModerationReport) => {
    const failure = await act(report, 'dismiss')
    if (failure) setError(failure)
  }

  const confirmTakeDown = async (report: ModerationReport) => {
    setTakeDownError(null)
    const failure = await act(report, 'take-down')
    if (failure) setTakeDownError(failure)
    else setTakingDown(null)
  }

  const reports = data?.reports ?? []
  const totalPages = data?.pagination.totalPages ?? 1
  const reviewHours = data?.reviewWithinHours ?? 24

  let body
  if (isLoading) {
    body = (
      <p className="page-loading" role="status">
        Loading reports...
      </p>
    )
  } else if (isError) {
    body = (
      <div className="error-state" role="alert">
        <p>{LOAD_FAILED}</p>
        <button type="button" className="btn btn-small" onClick={() => refetch()}>
          Try again
        </button>
      </div>
    )
  } else if (reports.length === 0) {
    body = <p className="empty-state">No open reports. Everything has been reviewed.</p>
  } else {
    body = (
      <ol className="list moderation-list" aria-label="Open reports">
        {reports.map((report) => {
          const deadline = reviewDeadline(report.reviewDueAt, now)
          const busy = busyId === report._id
          return (
            <li key={report._id} className="card moderation-report">
              <div className="card-body">
                <div className="moderation-report-head">
                  <span className="badge badge-danger">{report.reasonLabel}</span>
                  <span
                    className={
                      deadline.overdue
                        ? 'badge badge-danger moderation-deadline'
                        : 'badge badge-warning moderation-deadline'
                    }
                    title={`Reported ${new Date(report.createdAt).toLocaleString()}; review due ${new Date(report.reviewDueAt).toLocaleString()}`}
                  >
                    {deadline.text}
                  </span>
                  {report.target?.takenDown && <span className="badge">Taken down</span>}
                  {report.openReportsOnTarget > 1 && (
                    <span className="badge">{report.openReportsOnTarget} open reports</span>
                  )}
                </div>
                <ReportedContent report={report} />
                <dl className="details-fields moderation-details">
                  <dt>Reason</dt>
                  <dd>{report.reasonLabel}</dd>
                  <dt>Details</dt>
                  <dd>{report.description || <span className="muted">No details given</span>}</dd>
                  <dt>Reported by</dt>
                  <dd>
                    {report.reporter.name}{' '}
                    <span className="muted">
                      {reportedAgo(report.createdAt, now)} (
                      {new Date(report.createdAt).toLocaleString()})
                    </span>
                  </dd>
                </dl>
                <div className="settings-card-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={busy}
                    onClick={() => dismiss(report)}
                  >
                    Dismiss
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-danger"
                    disabled={busy || !report.target}
                    onClick={() => {
                      setTakeDownError(null)
                      setTakingDown(report)
                    }}
                  >
                    Take down
                  </button>
                </div>
              </div>
            </li>
          )
        })}
      </ol>
    )
  }

  return (
    <section className="settings-list-page" aria-labelledby="moderation-title">
      <header className="settings-list-header">
        <h1 id="moderation-title">Moderation</h1>
        <button
          type="button"
          className="btn btn-small"
          disabled={isFetching}
          onClick={() => refetch()}
        >
          {isFetching && !isLoading ? 'Refreshing...' : 'Refresh'}
        </button>
      </header>
      <p className="muted settings-info">
        Reports are reviewed within {reviewHours} hours. The oldest open reports come first.
        {data && data.overdue > 0 && (
          <>
            {' '}
            <strong className="moderation-overdue-count">{data.overdue} overdue</strong>
          </>
        )}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {body}
      {totalPages > 1 && (
        <nav className="toolbar moderation-pages" aria-label="Report pages">
          <button
            type="button"
            className="btn btn-small"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            Previous
          </button>
          <span>
            Page {page} of {totalPages}
          </span>
          <button
            type="button"
            className="btn btn-small"
            disabled={page >= totalPages}
            onClick={() => setPage(page + 1)}
          >
            Next
          </button>
        </nav>
      )}
      {takingDown && (
        <ConfirmModal
          title="Take down"
          message={takeDownQuestion(takingDown)}
          confirmLabel="Take down"
          busyLabel="Taking down..."
          busy={resolveState.isLoading}
          error={takeDownError}
          onCancel={() => setTakingDown(null)}
          onConfirm={() => confirmTakeDown(takingDown)}
        />
      )}
    </section>
  )
}
