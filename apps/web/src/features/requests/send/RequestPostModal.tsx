import { useCloseModal } from '@/app/modals/use-close-modal'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { useAppSelector } from '@/app/hooks'
import { selectCurrentUser, selectIsLoggedIn } from '@/lib/auth-slice'
import { LoginPrompt } from '@/app/modals/LoginPrompt'
import ProfileRequiredModal from '@/features/requests/send/ProfileRequiredModal'
import { useSendPostRequestMutation } from '@/features/requests/send/send-requests-api'
import { Modal } from '@/components/ui/Modal'
import { paths } from '@/config/paths'
import { errorMessage, errorStatus } from '@/lib/api'
import type { JobPost } from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import { OfferFields } from '@/features/requests/offers/OfferFields'
import {
  emptyOfferDraft,
  isBlankDraft,
  offerBody,
  readOfferDraft,
  unitOfSalary,
} from '@/features/requests/offers/offer-form'

/** The text for a refused request to a post. */
export function postRequestErrorText(error: unknown): string {
  const status = errorStatus(error)
  if (status === 409) return Messages.requests.alreadyRequestedPost
  if (status === 400) return errorMessage(error, Messages.requests.invalid)
  return Messages.requests.sendFailed
}

/**
 * Send-request-to-post: workers only; guests are asked to log in. Once sent,
 * the confirmation offers "Message": the request's conversation is open from now on.
 */
export default function RequestPostModal({ post }: { post: JobPost }) {
  const navigate = useNavigate()
  const loggedIn = useAppSelector(selectIsLoggedIn)
  const user = useAppSelector(selectCurrentUser)
  const [send, { isLoading }] = useSendPostRequestMutation()
  const [error, setError] = useState<string | null>(null)
  const [alreadyRequested, setAlreadyRequested] = useState(false)
  const [sentRequestId, setSentRequestId] = useState<string | null>(null)
  // An optional offer, in the post's terms: per hour when its salary reads so.
  const [offer, setOffer] = useState(() => emptyOfferDraft(unitOfSalary(post.salary)))
  const [offerError, setOfferError] = useState<string | null>(null)
  const close = useCloseModal()

  if (loggedIn && user?.isWorker !== true) return <ProfileRequiredModal />

  if (sentRequestId) {
    return (
      <Modal title={`Send a request: ${post.title}`} onClose={close}>
        <p className="form-success" role="status">
          Your request was sent. You can write to the post's owner while they consider it.
        </p>
        <div className="modal-actions">
          <Link className="btn" to={paths.messages.byRequest(sentRequestId)} onClick={close}>
            Message
          </Link>
          <button type="button" className="btn btn-primary" onClick={close}>
            Done
          </button>
        </div>
      </Modal>
    )
  }

  const submit = async () => {
    setError(null)
    // Left blank, the request goes without an offer, exactly as before offers existed.
    let withOffer = {}
    if (!isBlankDraft(offer)) {
      const read = readOfferDraft(offer)
      if ('error' in read) {
        setOfferError(read.error)
        return
      }
      withOffer = { offer: offerBody(read.offer) }
    }
    setOfferError(null)
    try {
      const created = await send({ postID: post._id, ...withOffer }).unwrap()
      setSentRequestId(created._id)
    } catch (failure) {
      if (errorStatus(failure) === 409) setAlreadyRequested(true)
      setError(postRequestErrorText(failure))
    }
  }

  return (
    <Modal title={`Send a request: ${post.title}`} onClose={close}>
      <p>
        The post's owner receives your request with your worker profile, and is notified. Once they
        accept it, you can see the post's private location and contact.
      </p>
      {!loggedIn ? (
        <LoginPrompt message="Log in or create an account to send a request." />
      ) : (
        <>
          <OfferFields
            idPrefix="request-offer"
            draft={offer}
            onChange={setOffer}
            error={offerError}
          />
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="modal-actions">
            <button
              type="button"
              className="btn"
              onClick={() => {
                close()
                navigate(paths.settings.myWorkerProfile)
              }}
            >
              Check my profile
            </button>
            <button
              type="button"
              className="btn btn-primary"
              onClick={submit}
              disabled={isLoading || alreadyRequested}
            >
              {alreadyRequested
                ? Messages.requests.alreadyRequestedButton
                : isLoading
                  ? 'Sending...'
                  : 'Send a request'}
            </button>
          </div>
        </>
      )}
    </Modal>
  )
}
