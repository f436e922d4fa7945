import { useState } from 'react'
import type { ReceivedJobRequest } from '@marketplace/contracts/api'
import { errorMessage } from '@/lib/api'
import { useCounterPostRequestMutation } from '@/features/requests/requests-api'
import { OfferFields } from './OfferFields'
import { emptyOfferDraft, offerBody, readOfferDraft } from './offer-form'
import './offers.css'

/**
 * The owner's one counter-offer on a pending request: a button that opens the amount, unit
 * and note, checked as the server checks them. Gone once a counter was made.
 */
export function CounterOfferForm({ request }: { request: ReceivedJobRequest }) {
  const [open, setOpen] = useState(false)
  const [draft, setDraft] = useState(() => emptyOfferDraft(request.offer?.unit ?? 'fixed'))
  const [error, setError] = useState<string | null>(null)
  const [counter, { isLoading }] = useCounterPostRequestMutation()

  if (request.status !== 'pending' || request.counter) return null
  if (!open) {
    return (
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)}>
        Make a counter-offer
      </button>
    )
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    const read = readOfferDraft(draft)
    if ('error' in read) {
      setError(read.error)
      return
    }
    setError(null)
    // A counter has no proposed time of its own: the worker's stands.
    const { amount, unit, note } = offerBody(read.offer)
    try {
      await counter({ id: request._id, amount, unit, ...(note ? { note } : {}) }).unwrap()
      setOpen(false)
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to send the counter-offer. Please try again.'))
    }
  }

  return (
    <form
      className="counter-offer-form"
      aria-label={`Counter-offer to ${request.requester.name}`}
      onSubmit={submit}
      noValidate
    >
      <OfferFields
        idPrefix={`counter-${request._id}`}
        draft={draft}
        onChange={setDraft}
        error={error}
        withTime={false}
        amountLabel="Counter-offer"
        optional={false}
      />
      <p className="muted">You can make one counter-offer on this request.</p>
      <div className="modal-actions">
        <button type="button" className="btn" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={isLoading}>
          {isLoading ? 'Sending...' : 'Send counter-offer'}
        </button>
      </div>
    </form>
  )
}
