import type { CounterView, OfferView } from '@marketplace/contracts/api'
import { formatOfferAmount, type OfferAmount } from '@marketplace/contracts/marketplace'
import './offers.css'

const COUNTER_STATE_TEXT = {
  pending: 'waiting for an answer',
  accepted: 'accepted',
  declined: 'declined',
} as const

/**
 * The terms of one request as its two sides see them: the agreed amount once accepted,
 * else the current offer, and the counter-offer with where it stands. Nothing without an
 * offer or a counter.
 */
export function OfferTerms({
  offer,
  counter,
  agreed,
}: {
  offer?: OfferView | null
  counter?: CounterView | null
  agreed?: OfferAmount | null
}) {
  if (!offer && !counter) return null
  return (
    <dl className="offer-terms">
      {agreed ? (
        <div>
          <dt>Agreed amount</dt>
          <dd className="offer-agreed">{formatOfferAmount(agreed)}</dd>
        </div>
      ) : (
        offer && (
          <div>
            <dt>Offer</dt>
            <dd>{formatOfferAmount(offer)}</dd>
          </div>
        )
      )}
      {offer?.proposedTime && (
        <div>
          <dt>Proposed time</dt>
          <dd>{offer.proposedTime}</dd>
        </div>
      )}
      {offer?.note && (
        <div>
          <dt>Note</dt>
          <dd>{offer.note}</dd>
        </div>
      )}
      {counter && (
        <div>
          <dt>Counter-offer</dt>
          <dd>
            {formatOfferAmount(counter)} ({COUNTER_STATE_TEXT[counter.state]})
            {counter.note && <span className="muted"> · {counter.note}</span>}
          </dd>
        </div>
      )}
    </dl>
  )
}
