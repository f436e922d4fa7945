import { useState } from 'react'
import { useAppSelector } from '@/app/hooks'
import { selectCurrentUser } from '@/lib/auth-slice'
import { ConfirmModal } from '@/components/ui/Modal'
import { Picture } from '@/components/ui/Picture'
import { settingsCardSizes } from '@/components/ui/settings-card-sizes'
import { Messages } from '@marketplace/contracts/validation'
import type { SentJobRequest } from '@marketplace/contracts/api'
import {
  IconButton,
  ResetButton,
  SortSelect,
  ViewToggle,
  type ListView,
} from '@/components/ui/ListControls'
import { CloseIcon } from '@/components/icons/CloseIcon'
import { StatusSelect } from './RequestStatus'
import { matchesStatus, statusLabel, type StatusFilter } from './request-status'
import { sortByDate, type DateOrder } from '@/lib/sort-by-date'
import { useDeletePostRequestMutation, useGetSentPostRequestsQuery } from './requests-api'
import { SentPostDetailsModal } from './SentPostDetailsModal'
import { MessageLink } from './MessageLink'
import { CounterAnswer } from './offers/CounterAnswer'
import { OfferTerms } from './offers/OfferTerms'
import '@/components/ui/list-page.css'
import './requests.css'

const SORT_LABELS = [
  ['recent', 'Most Recent'],
  ['oldest', 'Oldest First'],
] as const

type Dialog = { kind: 'details' | 'delete'; request: SentJobRequest } | null

/** Settings › Posts I requested. */
export default function SentPostRequestsPage() {
  const user = useAppSelector(selectCurrentUser)
  const {
    data: requests = [],
    isLoading,
    isError,
  } = useGetSentPostRequestsQuery(user?._id ?? '', { skip: !user })
  const [remove, removeState] = useDeletePostRequestMutation()
  const [view, setView] = useState<ListView>('grid')
  const [order, setOrder] = useState<DateOrder>('recent')
  const [status, setStatus] = useState<StatusFilter>('all')
  const [dialog, setDialog] = useState<Dialog>(null)

  const shown = sortByDate(
    requests.filter((request) => request.post && matchesStatus(request.status, status)),
    (request) => request.createdAt,
    order,
  )

  const confirmDelete = async (request: SentJobRequest) => {
    try {
      await remove(request._id).unwrap()
    } catch {
      // A failed withdrawal is silent.
    }
    setDialog(null)
  }

  const reset = () => {
    setView('grid')
    setOrder('recent')
    setStatus('all')
  }

  return (
    <section className="settings-list-page" aria-labelledby="sent-post-requests-title">
      <header className="settings-list-header">
        <h1 id="sent-post-requests-title">Posts I Requested</h1>
      </header>
      <div className="toolbar">
        <ViewToggle view={view} onChange={setView} />
        <SortSelect value={order} onChange={setOrder} options={SORT_LABELS} />
        <StatusSelect value={status} onChange={setStatus} />
        <ResetButton onClick={reset} />
      </div>

      {isLoading ? (
        <p className="page-loading" role="status">
          Loading requests...
        </p>
      ) : isError ? (
        <p className="error-state" role="alert">
          {Messages.requests.loadFailed}
        </p>
      ) : shown.length === 0 ? (
        <p className="empty-state">No requested posts found</p>
      ) : (
        <ul
          className={view === 'grid' ? 'grid' : 'list'}
          role="list"
          aria-label="Posts I requested"
        >
          {shown.map((request) => (
            <li key={request._id} className="card settings-card" aria-label={request.post.title}>
              <Picture
                className="settings-card-picture"
                picture={request.post.jobPicture}
                use="card"
                sizes={settingsCardSizes(view)}
                alt=""
              />
              <div className="card-body">
                <h3 className="settings-card-title">{request.post.title}</h3>
                {request.post.location && <p className="muted">{request.post.location}</p>}
                <OfferTerms
                  offer={request.offer}
                  counter={request.counter}
                  agreed={request.agreed}
                />
                <CounterAnswer request={request} />
                <div className="settings-card-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => setDialog({ kind: 'details', request })}
                  >
                    Details
                  </button>
                  <button
                    type="button"
                    className={`btn btn-small status-btn status-${request.status}`}
                    aria-label={`Status: ${statusLabel(request.status)}`}
                    onClick={() => setDialog({ kind: 'details', request })}
                  >
                    {statusLabel(request.status)}
                  </button>
                  <MessageLink requestId={request._id} />
                  <IconButton
                    label={`Delete request on ${request.post.title}`}
                    icon={<CloseIcon />}
                    onClick={() => setDialog({ kind: 'delete', request })}
                  />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}

      {dialog?.kind === 'details' && (
        <SentPostDetailsModal
          request={dialog.request}
          onClose={() => setDialog(null)}
          onRemove={() => setDialog({ kind: 'delete', request: dialog.request })}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmModal
          title="Delete Request"
          message={`Are you sure to delete your request on "${dialog.request.post.title}"?`}
          confirmLabel="Delete"
          busy={removeState.isLoading}
          onCancel={() => setDialog(null)}
          onConfirm={() => confirmDelete(dialog.request)}
        />
      )}
    </section>
  )
}
