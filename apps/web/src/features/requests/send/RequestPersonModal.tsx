import { useCloseModal } from '@/app/modals/use-close-modal'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { useAppSelector } from '@/app/hooks'
import { selectIsLoggedIn } from '@/lib/auth-slice'
import { LoginPrompt } from '@/app/modals/LoginPrompt'
import { ageText, personName, skillsText } from '@/lib/person-display'
import { PostPicker } from '@/features/requests/send/PostPicker'
import { useSendPersonRequestMutation } from '@/features/requests/send/send-requests-api'
import { Modal } from '@/components/ui/Modal'
import { paths } from '@/config/paths'
import { errorMessage, errorStatus } from '@/lib/api'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import { Picture } from '@/components/ui/Picture'
import type { JobPost, SentPeopleRequest } from '@marketplace/contracts/api'
import type { ShownPerson } from '@/lib/entities-api'
import { Messages } from '@marketplace/contracts/validation'
import './send-requests.css'

/**
 * Send-request-to-person: pick one of one's posts, then send. Once sent, the
 * confirmation offers "Message": the request's conversation is open from now on.
 */
export default function RequestPersonModal({ person }: { person: ShownPerson }) {
  const loggedIn = useAppSelector(selectIsLoggedIn)
  const [send, { isLoading }] = useSendPersonRequestMutation()
  const [step, setStep] = useState<'summary' | 'picker'>('summary')
  const [post, setPost] = useState<JobPost | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState<SentPeopleRequest | null>(null)
  const close = useCloseModal()
  const name = personName(person)
  const age = ageText(person.age)
  const skills = skillsText(person.skills)

  const submit = async () => {
    if (!post) return
    if (!name) {
      setError(Messages.requests.workerInfoMissing)
      return
    }
    setError(null)
    try {
      setSent(await send({ postID: post._id, requestedID: person._id }).unwrap())
    } catch (failure) {
      const status = errorStatus(failure)
      if (status === 409) setError(Messages.requests.alreadyRequestedPerson)
      else if (status === 400) setError(errorMessage(failure, Messages.requests.invalid))
      // An alert for people requests.
      else window.alert(Messages.requests.sendFailed)
    }
  }

  if (sent) {
    return (
      <Modal title={name ? `Request ${name}` : 'Send a request'} onClose={close}>
        <p className="form-success" role="status">
          Your request was sent{post ? ` for "${post.title}"` : ''}. You can write to {name} while
          they consider it.
        </p>
        <div className="modal-actions">
          <Link className="btn" to={paths.messages.byRequest(sent._id)} onClick={close}>
            Message
          </Link>
          <button type="button" className="btn btn-primary" onClick={close}>
            Done
          </button>
        </div>
      </Modal>
    )
  }

  return (
    <Modal title={name ? `Request ${name}` : 'Send a request'} onClose={close}>
      {step === 'picker' ? (
        <PostPicker
          initial={post}
          onCancel={() => setStep('summary')}
          onConfirm={(chosen) => {
            setPost(chosen)
            setError(null)
            setStep('summary')
          }}
        />
      ) : (
        <>
          <div className="request-person">
            <Picture
              className="request-person-photo"
              picture={person.profilePicture}
              placeholder={DEFAULT_PROFILE_PICTURE}
              use="avatar"
              sizes="88px"
              alt={name ? `Photo of ${name}` : 'Profile photo'}
            />
            <div>
              <p className="request-person-name">{name}</p>
              {age && <p className="muted">{age}</p>}
              {skills && <p>{skills}</p>}
            </div>
          </div>
          {!loggedIn ? (
            <LoginPrompt message="Log in or create an account to send a request." />
          ) : (
            <>
              {post && (
                <p className="request-person-post">
                  For your post: <strong>{post.title}</strong>
                </p>
              )}
              {error && (
                <p className="form-error" role="alert">
                  {error}
                </p>
              )}
              <div className="modal-actions">
                <button type="button" className="btn" onClick={() => setStep('picker')}>
                  {post ? 'Change post' : 'Select a post'}
                </button>
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={!post || isLoading}
                  onClick={submit}
                >
                  {isLoading ? 'Sending...' : 'Send request'}
                </button>
              </div>
            </>
          )}
        </>
      )}
    </Modal>
  )
}
