import { useCloseModal } from '@/app/modals/use-close-modal'
import { useNavigate } from 'react-router-dom'
import { Modal } from '@/components/ui/Modal'
import { paths } from '@/config/paths'

/** Only a worker may send a request to a post. */
export default function ProfileRequiredModal() {
  const navigate = useNavigate()
  const close = useCloseModal()
  return (
    <Modal title="Profile Required" onClose={close}>
      <p>
        You need a worker profile to send requests. Create your worker profile so the post's owner
        can see who you are, your skills and how to reach you.
      </p>
      <div className="modal-actions">
        <button type="button" className="btn" onClick={close}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            close()
            navigate(paths.settings.myWorkerProfile)
          }}
        >
          Create my worker profile
        </button>
      </div>
    </Modal>
  )
}
