import { useState } from 'react'
import type { SentJobRequest } from '@marketplace/contracts/api'
import { formatOfferAmount } from '@marketplace/contracts/marketplace'
import { errorMessage } from '@/lib/api'
import { useAnswerCounterOfferMutation } from '@/features/requests/requests-api'
import './offers.css'

/** The worker's answer to the owner's counter-offer, while it waits and the request is pending. */
export function CounterAnswer({ request }: { request: SentJobRequest }) {
  const [answer, { isLoading }] = useAnswerCounterOfferMutation()
  const [error, setError] = useState<string | null>(null)
  const counter = request.counter
  if (request.status !== 'pending' || counter?.state !== 'pending') return null

  const send = async (choice: 'accepted' | 'declined') => {
    setError(null)
    try {
      await answer({ id: request._id, answer: choice }).unwrap()
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to answer the counter-offer. Please try again.'))
    }
  }

  return (
    <div className="counter-answer" role="group" aria-label="Counter-offer">
      <p>
        The owner offers <strong>{formatOfferAmount(counter)}</strong>
        {counter.note ? `: ${counter.note}` : ''}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="counter-answer-actions">
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={isLoading}
          onClick={() => send('accepted')}
        >
          Accept counter-offer
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={isLoading}
          onClick={() => send('declined')}
        >
          Decline counter-offer
        </button>
      </div>
    </div>
  )
}
