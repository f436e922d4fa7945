import { useAppSelector } from '@/app/hooks'
import { selectOpenModal } from '@/app/ui-slice'
import WorkerDetailsModal from '@/features/people/WorkerDetailsModal'
import AddPostModal from '@/features/posts/AddPostModal'
import PostDetailsModal from '@/features/posts/PostDetailsModal'
import ReportModal from '@/features/reports/ReportModal'
import ProfileRequiredModal from '@/features/requests/send/ProfileRequiredModal'
import RequestPersonModal from '@/features/requests/send/RequestPersonModal'
import RequestPostModal from '@/features/requests/send/RequestPostModal'

/**
 * Renders the one open modal (spec 1 §2 "Modals"). Keyed by its subject, so opening the
 * same kind for another post or person starts from a fresh state.
 */
export default function ModalHost() {
  const modal = useAppSelector(selectOpenModal)
  if (!modal) return null
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
