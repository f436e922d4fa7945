import { lazy, Suspense } from 'react'
import { useAppSelector } from '@/app/hooks'
import { selectOpenModal } from '@/app/ui-slice'

// Each modal is its own chunk, loaded the first time it opens: the home route's first load
// carries none of them (docs/benchmarks.md, the home route budget).
const WorkerDetailsModal = lazy(() => import('@/features/people/WorkerDetailsModal'))
const AddPostModal = lazy(() => import('@/features/posts/AddPostModal'))
const PostDetailsModal = lazy(() => import('@/features/posts/PostDetailsModal'))
const ReportModal = lazy(() => import('@/features/reports/ReportModal'))
const ProfileRequiredModal = lazy(() => import('@/features/requests/send/ProfileRequiredModal'))
const RequestPersonModal = lazy(() => import('@/features/requests/send/RequestPersonModal'))
const RequestPostModal = lazy(() => import('@/features/requests/send/RequestPostModal'))

/**
 * Renders the one open modal (spec 1 §2 "Modals"). Keyed by its subject, so opening the
 * same kind for another post or person starts from a fresh state.
 */
export default function ModalHost() {
  const modal = useAppSelector(selectOpenModal)
  if (!modal) return null
  return (
    <Suspense
      fallback={
        <div className="modal-backdrop">
          <p className="page-loading" role="status">
            Loading...
          </p>
        </div>
      }
    >
      <OpenModalView modal={modal} />
    </Suspense>
  )
}

function OpenModalView({ modal }: { modal: NonNullable<ReturnType<typeof selectOpenModal>> }) {
  switch (modal.kind) {
    case 'addPost':
      return <AddPostModal />
    case 'postDetails':
      return <PostDetailsModal key={modal.post._id} post={modal.post} />
    case 'workerDetails':
      return <WorkerDetailsModal key={modal.person._id} person={modal.person} />
    case 'requestPost':
      return <RequestPostModal key={modal.post._id} post={modal.post} />
    case 'requestPerson':
      return <RequestPersonModal key={modal.person._id} person={modal.person} />
    case 'reportPost':
      return <ReportModal key={modal.post._id} target={{ kind: 'post', post: modal.post }} />
    case 'reportPerson':
      return (
        <ReportModal key={modal.person._id} target={{ kind: 'person', person: modal.person }} />
      )
    case 'profileRequired':
      return <ProfileRequiredModal />
    default:
      return null
  }
}
