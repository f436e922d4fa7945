import { useState } from 'react'
import { ConfirmModal } from '@/components/ui/Modal'
import { errorStatus } from '@/lib/api'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import type { ReceivedPeopleRequest } from '@marketplace/contracts/api'
import { IconButton, ResetButton, SortSelect } from '@/components/ui/ListControls'
import { StatusSelect } from './RequestStatus'
import { matchesStatus, type StatusFilter } from './request-status'
import { sortByDate, type DateOrder } from '@/lib/sort-by-date'
import { RequestDecision } from './RequestDecision'
import {
  useDecidePeopleRequestMutation,
  useDeleteReceivedPeopleRequestMutation,
  useGetReceivedPeopleRequestsQuery,
} from './requests-api'
import { useOpenPostDetails } from './use-open-post-details'
import { MessageLink } from './MessageLink'
import { BlockUserButton } from '@/features/blocks/BlockUserButton'
import '@/components/ui/list-page.css'
import './requests.css'

// The verbs of "Failed to {status} request.".
const VERBS: Record<RequestStatus, string> = {
  accepted: 'accept',
  rejected: 'decline',
  pending: 'update',
}

/** Settings › People requested me. Decided requests can only be deleted. */
export default function ReceivedPeopleRequestsPage() {
  const { data: requests = [], isLoading, isError } = useGetReceivedPeopleRequestsQuery()
  const [decide] = useDecidePeopleRequestMutation()
  const [remove, removeState] = useDeleteReceivedPeopleRequestMutation()
  const postDetails = useOpenPostDetails(Messages.requests.postDetailsFailed)
  const [order, setOrder] = useState<DateOrder>('recent')
  const [status, setStatus] = useState<StatusFilter>('all')
  const [busyId, setBusyId] = useState<string | null>(null)
  const [actionError, setActionError] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<ReceivedPeopleRequest | null>(null)
  const [deleteError, setDeleteError] = useState<string | null>(null)

  const shown = sortByDate(
    requests.filter((request) => matchesStatus(request.status, status)),
    (request) => request.createdAt,
    order,
  )

  const setDecision = async (request: ReceivedPeopleRequest, next: RequestStatus) => {
    setBusyId(request._id)
    setActionError(null)
    try {
      await decide({ id: request._id, status: next }).unwrap()
    } catch (error) {
      setActionError(
        errorStatus(error) === 404
          ? Messages.requests.notFound
          : Messages.requests.decideFailed(VERBS[next]),
      )
    } finally {
      setBusyId(null)
    }
  }

  const confirmDelete = async (request: ReceivedPeopleRequest) => {
    setDeleteError(null)
    try {
      await remove(request._id).unwrap()
      setDeleting(null)
    } catch (error) {
      setDeleteError(
        errorStatus(error) === 404 ? Messages.requests.notFound : Messages.requests.deleteFailed,
      )
    }
  }

  const error = actionError ?? postDetails.error

  return (
    <section className="settings-list-page" aria-labelledby="received-people-title">
      <header className="settings-list-header">
        <h1 id="received-people-title">People Requested Me</h1>
      </header>
      <div className="toolbar">
        <SortSelect value={order} onChange={setOrder} />
        <StatusSelect value={status} onChange={setStatus} />
        <ResetButton
          label="Reset"
          onClick={() => {
            setOrder('recent')
            setStatus('all')
          }}
        />
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}

      {isLoading ? (
        <p className="page-loading" role="status">
          Loading requests...
        </p>
      ) : isError ? (
        <p className="error-state" role="alert">
          {Messages.requests.loadReceivedFailed}
        </p>
      ) : shown.length === 0 ? (
        <p className="empty-state">No requests received yet</p>
      ) : (
        <ul className="list" role="list" aria-label="People requested me">
          {shown.map((request) => (
            <li key={request._id} className="card request-row">
              <div className="request-row-text">
                <p>
                  <strong>{request.requester.name}</strong> is requesting you for{' '}
                  <button
                    type="button"
                    className="link-btn"
                    disabled={postDetails.loadingId === request.post._id}
                    onClick={() => postDetails.open(request.post._id)}
                  >
                    {request.post.title}
                  </button>
                </p>
                <p className="muted">{new Date(request.createdAt).toLocaleDateString()}</p>
              </div>
              <div className="request-row-actions">
                <MessageLink requestId={request._id} />
                <BlockUserButton
                  userId={request.requester._id}
                  name={request.requester.name}
                  label={`Block ${request.requester.name}`}
                />
                <RequestDecision
                  status={request.status}
                  busy={busyId === request._id}
                  onDecide={(next) => setDecision(request, next)}
                  decided={
                    <IconButton
                      label={`Delete request from ${request.requester.name}`}
                      onClick={() => {
                        setDeleteError(null)
                        setDeleting(request)
                      }}
                    />
                  }
                />
              </div>
            </li>
          ))}
        </ul>
      )}

      {deleting && (
        <ConfirmModal
          title="Delete Request"
          message={`Are you sure to delete ${deleting.requester.name}'s request for "${deleting.post.title}"?`}
          confirmLabel="Delete"
          busy={removeState.isLoading}
          error={deleteError}
          onCancel={() => setDeleting(null)}
          onConfirm={() => confirmDelete(deleting)}
        />
      )}
    </section>
  )
}
