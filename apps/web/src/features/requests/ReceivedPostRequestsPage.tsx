import { useState } from 'react'
import { useAppSelector } from '@/app/hooks'
import { selectCurrentUser } from '@/lib/auth-slice'
import { ConfirmModal } from '@/components/ui/Modal'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import { Picture } from '@/components/ui/Picture'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import type { ReceivedJobRequest } from '@marketplace/contracts/api'
import {
  IconButton,
  ResetButton,
  Select,
  SortSelect,
  ViewToggle,
  type ListView,
} from '@/components/ui/ListControls'
import { UndoIcon } from '@/components/icons/UndoIcon'
import { StatusSelect } from './RequestStatus'
import { matchesStatus, type StatusFilter } from './request-status'
import { sortByDate, type DateOrder } from '@/lib/sort-by-date'
import { RequestDecision } from './RequestDecision'
import { RequesterDetailsModal } from './RequesterDetailsModal'
import { MessageLink } from './MessageLink'
import { CounterOfferForm } from './offers/CounterOfferForm'
import { OfferTerms } from './offers/OfferTerms'
import { OffersComparison } from './offers/OffersComparison'
import {
  useDecidePostRequestMutation,
  useDeletePostRequestMutation,
  useGetReceivedPostRequestsQuery,
} from './requests-api'
import { useOpenPostDetails } from './use-open-post-details'
import '@/components/ui/list-page.css'
import './requests.css'

const ALL_JOBS = '__all__'

/** Settings › Requests on my posts. */
export default function ReceivedPostRequestsPage() {
  const user = useAppSelector(selectCurrentUser)
  const { data, isLoading } = useGetReceivedPostRequestsQuery(user?._id ?? '', { skip: !user })
  // A load failure shows an empty list.
  const requests = data ?? []
  const [decide] = useDecidePostRequestMutation()
  const [remove, removeState] = useDeletePostRequestMutation()
  const postDetails = useOpenPostDetails()
  const [view, setView] = useState<ListView>('list')
  const [order, setOrder] = useState<DateOrder>('recent')
  const [status, setStatus] = useState<StatusFilter>('all')
  const [job, setJob] = useState<string>(ALL_JOBS)
  const [busyId, setBusyId] = useState<string | null>(null)
  const [requester, setRequester] = useState<ReceivedJobRequest['requester'] | null>(null)
  const [deleting, setDeleting] = useState<ReceivedJobRequest | null>(null)

  const titles = [...new Set(requests.map((request) => request.post.title))].sort()
  const jobOptions = [[ALL_JOBS, 'All Jobs'] as const, ...titles.map((t) => [t, t] as const)]
  const shown = sortByDate(
    requests.filter(
      (request) =>
        matchesStatus(request.status, status) && (job === ALL_JOBS || request.post.title === job),
    ),
    (request) => request.createdAt,
    order,
  )

  const setDecision = async (request: ReceivedJobRequest, next: RequestStatus) => {
    setBusyId(request._id)
    try {
      await decide({ id: request._id, status: next }).unwrap()
    } catch {
      // A failed status change is silent; the row keeps its status.
    } finally {
      setBusyId(null)
    }
  }

  const confirmDelete = async (request: ReceivedJobRequest) => {
    try {
      await remove(request._id).unwrap()
    } catch {
      // A failed delete is silent.
    }
    setDeleting(null)
  }

  const reset = () => {
    setView('list')
    setOrder('recent')
    setStatus('all')
    setJob(ALL_JOBS)
  }

  return (
    <section className="settings-list-page" aria-labelledby="received-requests-title">
      <header className="settings-list-header">
        <h1 id="received-requests-title">Requests on my posts</h1>
      </header>
      <div className="toolbar">
        <ViewToggle view={view} onChange={setView} />
        <SortSelect value={order} onChange={setOrder} />
        <StatusSelect value={status} onChange={setStatus} />
        <Select label="Job" value={job} options={jobOptions} onChange={setJob} />
        <ResetButton onClick={reset} />
      </div>

      {!isLoading && <OffersComparison requests={shown} />}

      {isLoading ? (
        <p className="page-loading" role="status">
          Loading requests...
        </p>
      ) : shown.length === 0 ? (
        <p className="empty-state">No requests found matching your criteria.</p>
      ) : (
        <ul className={view === 'grid' ? 'grid' : 'list'} role="list" aria-label="Requests">
          {shown.map((request) => (
            <li key={request._id} className="card request-row">
              <Picture
                className="request-row-picture"
                picture={request.requester.profilePicture}
                placeholder={DEFAULT_PROFILE_PICTURE}
                use="avatar"
                sizes="48px"
                alt=""
              />
              <div className="request-row-text">
                <p>
                  <button
                    type="button"
                    className="link-btn"
                    onClick={() => setRequester(request.requester)}
                  >
                    {request.requester.name}
                  </button>{' '}
                  is requesting for{' '}
                  <button
                    type="button"
                    className="link-btn"
                    disabled={postDetails.loadingId === request.post._id}
                    onClick={() => postDetails.open(request.post._id)}
                  >
                    {request.post.title}
                  </button>
                </p>
                <p className="muted">{request.post.location}</p>
                <OfferTerms
                  offer={request.offer}
                  counter={request.counter}
                  agreed={request.agreed}
                />
                <CounterOfferForm request={request} />
              </div>
              <div className="request-row-actions">
                <MessageLink requestId={request._id} />
                <RequestDecision
                  status={request.status}
                  busy={busyId === request._id}
                  onDecide={(next) => setDecision(request, next)}
                  decided={
                    <IconButton
                      label="Undo decision"
                      icon={<UndoIcon />}
                      disabled={busyId === request._id}
                      onClick={() => setDecision(request, 'pending')}
                    />
                  }
                />
                <IconButton
                  label={`Delete request from ${request.requester.name}`}
                  onClick={() => setDeleting(request)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}

      {requester && (
        <RequesterDetailsModal requester={requester} onClose={() => setRequester(null)} />
      )}
      {deleting && (
        <ConfirmModal
          title="Delete Request on my post"
          message={`Are you sure to delete your request on "${deleting.post.title}"?`}
          confirmLabel="Delete"
          busy={removeState.isLoading}
          onCancel={() => setDeleting(null)}
          onConfirm={() => confirmDelete(deleting)}
        />
      )}
    </section>
  )
}
