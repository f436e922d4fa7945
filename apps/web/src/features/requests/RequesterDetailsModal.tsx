import type { ReceivedJobRequest } from '@marketplace/contracts/api'
import { Modal } from '@/components/ui/Modal'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import { Picture } from '@/components/ui/Picture'
import { skillsText } from '@/lib/person-display'
import { BlockUserButton } from '@/features/blocks/BlockUserButton'
import '@/components/ui/list-page.css'
import './requests.css'

/** Who asked for one of my posts, from the fields the request carries; Block is here too. */
export function RequesterDetailsModal({
  requester,
  onClose,
}: {
  requester: ReceivedJobRequest['requester']
  onClose: () => void
}) {
  const skills = skillsText(requester.skills)
  return (
    <Modal title={requester.name} onClose={onClose}>
      <div className="requester-details">
        <Picture
          picture={requester.profilePicture}
          placeholder={DEFAULT_PROFILE_PICTURE}
          use="avatar"
          sizes="96px"
          alt={`Picture of ${requester.name}`}
        />
        <dl className="details-fields">
          {requester.title && (
            <>
              <dt>Title</dt>
              <dd>{requester.title}</dd>
            </>
          )}
          <dt>Skills</dt>
          <dd>{skills || 'No skills listed'}</dd>
          {requester.email && (
            <>
              <dt>Email</dt>
              <dd>
                <a href={`mailto:${requester.email}`}>{requester.email}</a>
              </dd>
            </>
          )}
          <dt>Worker profile</dt>
          <dd>{requester.isWorker ? 'Yes' : 'No'}</dd>
        </dl>
      </div>
      <div className="modal-actions">
        <BlockUserButton
          userId={requester._id}
          name={requester.name}
          className="btn btn-danger"
          onBlocked={onClose}
        />
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  )
}
