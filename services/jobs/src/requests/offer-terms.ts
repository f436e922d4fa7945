import type { CounterView, OfferView } from '@marketplace/contracts/api'
import type { OfferAmount } from '@marketplace/contracts/marketplace'
import type { CheckedOffer } from '@marketplace/contracts/validation'
import type { JobRequestDocument, StoredCounter, StoredOffer } from './request-document'

/**
 * The terms of a request as its two sides see them, and as events carry them. Amounts are
 * kept in cents and shown in the post's currency with two decimals at most.
 */
export const amountOf = (cents: number) => cents / 100

export const storedOffer = (offer: CheckedOffer): StoredOffer => ({
  cents: offer.cents,
  unit: offer.unit,
  note: offer.note,
  proposedTime: offer.proposedTime,
})

export const offerView = (offer: StoredOffer): OfferView => ({
  amount: amountOf(offer.cents),
  unit: offer.unit,
  note: offer.note,
  proposedTime: offer.proposedTime,
})

export const counterView = (counter: StoredCounter): CounterView => ({
  amount: amountOf(counter.cents),
  unit: counter.unit,
  note: counter.note,
  state: counter.state,
  createdAt: counter.createdAt.toISOString(),
})

/** What events carry of a counter: the same terms as an offer, no proposed time of its own. */
export const counterTerms = (counter: StoredCounter) => ({
  amount: amountOf(counter.cents),
  unit: counter.unit,
  note: counter.note,
  proposedTime: '',
})

/**
 * The amount both sides agreed on: the request's offer, once the owner accepted the request.
 * Offers change only while a request is pending (a counter is made and answered only then),
 * so an accepted request's offer is fixed until the owner undoes the acceptance.
 */
export function agreedOf(request: JobRequestDocument): OfferAmount | null {
  if (request.status !== 'accepted' || !request.offer) return null
  return { amount: amountOf(request.offer.cents), unit: request.offer.unit }
}

/** The terms fields of a view, present only when the request has an offer or a counter. */
export function termsView(request: JobRequestDocument) {
  if (!request.offer && !request.counter) return {}
  return {
    offer: request.offer ? offerView(request.offer) : null,
    counter: request.counter ? counterView(request.counter) : null,
    agreed: agreedOf(request),
  }
}
