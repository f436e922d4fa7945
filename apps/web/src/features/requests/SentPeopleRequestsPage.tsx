import { useState } from 'react'
import { useAppDispatch } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { ConfirmModal } from '@/components/ui/Modal'
import { useLazyGetPersonQuery } from '@/lib/entities-api'
import { Messages } from '@marketplace/contracts/validation'
import type { SentPeopleRequest } from '@marketplace/contracts/api'
import { IconButton, ResetButton, SortSelect } from '@/components/ui/ListControls'
import { CloseIcon } from '@/components/icons/CloseIcon'
import { StatusSelect } from './RequestStatus'
import { matchesStatus, statusLabel, type StatusFilter } from './request-status'
import { sortByDate, type DateOrder } from '@/lib/sort-by-date'
import { useDeleteSentPeopleRequestMutation, useGetSentPeopleRequestsQuery } from './requests-api'
import { MessageLink } from './MessageLink'
import '@/components/ui/list-page.css'
import './requests.css'

/** Settings › People I requested. */
export default function SentPeopleRequestsPage() {
  const dispatch = useAppDispatch()
  const { data: requests = [], isLoading, isError } = useGetSentPeopleRequestsQuery()
  const [remove, removeState] = useDeleteSentPeopleRequestMutation()
  const [loadPerson] = useLazyGetPersonQuery()
  const [order, setOrder] = useState<DateOrder>('recent')
  const [status, setStatus] = useState<StatusFilter>('all')
  const [loadingId, setLoadingId] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<SentPeopleRequest | null>(null)

  const shown = sortByDate(
    requests.filter((request) => matchesStatus(request.status, status)),
    (request) => request.createdAt,
    order,
  )

  const openDetails = async (request: SentPeopleRequest) => {
    setLoadingId(request._id)
    try {
      const person = await loadPerson(request.requestedPerson._id, true).unwrap()
      dispatch(modalOpened({ kind: 'workerDetails', person }))
    } catch {
      // A failed details load is silent.
    } finally {
      setLoadingId(null)
    }
  }

  const confirmDelete = async (request: SentPeopleRequest) => {
    try {
      await remove(request._id).unwrap()
    } catch {
      // A failed delete is silent.
    }
    setDeleting(null)
  }

  return (
    <section className="settings-list-page" aria-labelledby="sent-people-title">
      <header className="settings-list-header">
        <h1 id="sent-people-title">People I requested</h1>
      </header>
      <div className="toolbar">
        <SortSelect value={order} onChange={setOrder} />
        <StatusSelect value={status} onChange={setStatus} />
        <ResetButton
          onClick={() => {
            setOrder('recent')
            setStatus('all')
          }}
        />
      </div>

      {isLoading ? (
        <p className="page-loading" role="status">
          Loading requests...
        </p>
      ) : isError ? (
        <p className="error-state" role="alert">
          {Messages.requests.loadFailedError}
        </p>
      ) : shown.length === 0 ? (
        <p className="empty-state">No requests found</p>
      ) : (
        <ul className="list" role="list" aria-label="People I requested">
          {shown.map((request) => (
            <li key={request._id} className="card request-row">
              <div className="request-row-text">
                <p>
                  You have requested <strong>{request.requestedPerson.name}</strong> for{' '}
                  <strong>{request.post.title}</strong>
                </p>
                <p className="muted">{new Date(request.createdAt).toLocaleDateString()}</p>
              </div>
              <div className="request-row-actions">
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={loadingId === request._id}
                  onClick={() => openDetails(request)}
                >
                  Details
                </button>
                <button
                  type="button"
                  className={`btn btn-small status-btn status-${request.status}`}
                  aria-label={`Status: ${statusLabel(request.status)}`}
                  onClick={() => openDetails(request)}
                >
                  {statusLabel(request.status)}
                </button>
                <MessageLink requestId={request._id} />
                <IconButton
                  label={
                    request.status === 'pending'
                      ? `Cancel request to ${request.requestedPerson.name}`
                      : `Delete request to ${request.requestedPerson.name}`
                  }
                  icon={request.status === 'pending' ? <CloseIcon /> : undefined}
                  onClick={() => setDeleting(request)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}

      {deleting && (
        <ConfirmModal
          title="Delete Request"
          message={`Are you sure to delete this person you requested for "${deleting.post.title}"?`}
          confirmLabel="Delete"
          busy={removeState.isLoading}
          onCancel={() => setDeleting(null)}
          onConfirm={() => confirmDelete(deleting)}
        />
      )}
    </section>
  )
}
