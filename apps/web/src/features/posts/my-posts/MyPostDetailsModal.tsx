import { PostFieldsView } from '@/components/ui/PostFieldsView'
import { Modal } from '@/components/ui/Modal'
import type { JobPost } from '@marketplace/contracts/api'

/** The owner's view of a post, with Delete and Modify. */
export function MyPostDetailsModal({
  post,
  onClose,
  onDelete,
  onModify,
}: {
  post: JobPost
  onClose: () => void
  onDelete: () => void
  onModify: () => void
}) {
  return (
    <Modal title={post.title} onClose={onClose} wide>
      {post.category && <span className="badge">{post.category}</span>}{' '}
      <span className={post.isOnline ? 'badge badge-success' : 'badge'}>
        {post.isOnline ? 'Online' : 'Offline'}
      </span>
      <PostFieldsView
        showPrivacy
        post={{
          title: post.title,
          location: post.location,
          jobStartEnd: post.jobStartEnd,
          salary: post.salary,
          paymentType: post.paymentType ?? [],
          contact: post.contact,
          contactValue: post.contactValue,
          infos: post.infos,
          expirationDate: post.expirationDate,
          picture: post.jobPicture,
          displayLocation: post.displayLocation,
          displayContact: post.displayContact,
        }}
      />
      <div className="modal-actions">
        <button type="button" className="btn btn-danger" onClick={onDelete}>
          Delete
        </button>
        <button type="button" className="btn btn-primary" onClick={onModify}>
          Modify
        </button>
      </div>
    </Modal>
  )
}
