import type { SentJobRequest } from '@marketplace/contracts/api'
import { PostFieldsView } from '@/components/ui/PostFieldsView'
import { Modal } from '@/components/ui/Modal'
import { StatusBadge } from './RequestStatus'
import './requests.css'

/**
 * A post I requested. The server sends the hidden location and contact value
 * as null (with the value's mask) until my request is accepted, so
 * they show masked until then.
 */
export function SentPostDetailsModal({
  request,
  onClose,
  onRemove,
}: {
  request: SentJobRequest
  onClose: () => void
  onRemove: () => void
}) {
  const { post } = request
  return (
    <Modal title={post.title} onClose={onClose} wide>
      <p>
        <StatusBadge status={request.status} />{' '}
        {post.owner?.name && <span className="muted">Posted by {post.owner.name}</span>}
      </p>
      <PostFieldsView
        post={{
          title: post.title,
          location: post.location,
          jobStartEnd: '',
          salary: post.salary,
          paymentType: [],
          contact: post.contact,
          contactValue: post.contactValue,
          infos: post.infos,
          expirationDate: null,
          picture: post.jobPicture,
        }}
      />
      <div className="modal-actions">
        <button type="button" className="btn btn-danger" onClick={onRemove}>
          Remove Request
        </button>
      </div>
    </Modal>
  )
}
