import { lazy, Suspense, useEffect, type ReactNode } from 'react'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalClosed, selectOpenModal, type OpenModal } from '@/app/ui-slice'
import { useGetPersonQuery, useGetPostQuery } from '@/lib/entities-api'

// Each modal is its own chunk, loaded the first time it opens: the home route's first load
// carries none of them (docs/benchmarks.md, the home route budget).
const WorkerDetailsModal = lazy(() => import('@/features/people/WorkerDetailsModal'))
const AddPostModal = lazy(() => import('@/features/posts/AddPostModal'))
const PostDetailsModal = lazy(() => import('@/features/posts/PostDetailsModal'))
const ReportModal = lazy(() => import('@/features/reports/ReportModal'))
const ProfileRequiredModal = lazy(() => import('@/features/requests/send/ProfileRequiredModal'))
const RequestPersonModal = lazy(() => import('@/features/requests/send/RequestPersonModal'))
const RequestPostModal = lazy(() => import('@/features/requests/send/RequestPostModal'))

function ModalLoading() {
  return (
    <div className="modal-backdrop">
      <p className="page-loading" role="status">
        Loading...
      </p>
    </div>
  )
}

/**
 * Renders the one open modal. Keyed by its subject, so opening the
 * same kind for another post or person starts from a fresh state.
 */
export default function ModalHost() {
  const modal = useAppSelector(selectOpenModal)
  if (!modal) return null
  return (
    <Suspense fallback={<ModalLoading />}>
      <OpenModalView modal={modal} />
    </Suspense>
  )
}

function OpenModalView({ modal }: { modal: OpenModal }) {
  switch (modal.kind) {
    case 'addPost':
      return <AddPostModal />
    case 'profileRequired':
      return <ProfileRequiredModal />
    case 'postDetails':
    case 'requestPost':
    case 'reportPost':
      return <PostModal key={modal.postId} kind={modal.kind} postId={modal.postId} />
    case 'workerDetails':
    case 'requestPerson':
    case 'reportPerson':
      return <PersonModal key={modal.personId} kind={modal.kind} personId={modal.personId} />
    default:
      return null
  }
}

/** The subject comes from RTK Query: cached when the modal opened, else read by id. */
function PostModal({
  kind,
  postId,
}: {
  kind: 'postDetails' | 'requestPost' | 'reportPost'
  postId: string
}) {
  const { data: post, isError } = useGetPostQuery(postId)
  if (!post) return <SubjectMissing failed={isError} />
  if (kind === 'postDetails') return <PostDetailsModal post={post} />
  if (kind === 'requestPost') return <RequestPostModal post={post} />
  return <ReportModal target={{ kind: 'post', post }} />
}

function PersonModal({
  kind,
  personId,
}: {
  kind: 'workerDetails' | 'requestPerson' | 'reportPerson'
  personId: string
}) {
  const { data: person, isError } = useGetPersonQuery(personId)
  if (!person) return <SubjectMissing failed={isError} />
  if (kind === 'workerDetails') return <WorkerDetailsModal person={person} />
  if (kind === 'requestPerson') return <RequestPersonModal person={person} />
  return <ReportModal target={{ kind: 'person', person }} />
}

/** While the subject is read, the loading backdrop; if it cannot be read, no modal. */
function SubjectMissing({ failed }: { failed: boolean }): ReactNode {
  const dispatch = useAppDispatch()
  useEffect(() => {
    if (failed) dispatch(modalClosed())
  }, [failed, dispatch])
  return failed ? null : <ModalLoading />
}
