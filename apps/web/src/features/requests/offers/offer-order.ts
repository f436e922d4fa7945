import type { ReceivedJobRequest } from '@marketplace/contracts/api'

export type OfferOrder = 'amount-asc' | 'amount-desc' | 'rating'

export const OFFER_ORDER_OPTIONS = [
  ['amount-asc', 'Amount: low to high'],
  ['amount-desc', 'Amount: high to low'],
  ['rating', 'Rating: best first'],
] as const

/** The amount a request's terms stand at: agreed, else the current offer; none sorts last. */
const amountOf = (request: ReceivedJobRequest) =>
  request.agreed?.amount ?? request.offer?.amount ?? null

/**
 * The requests with an offer, in the order the owner chose; ties (and unrated workers, who
 * come after rated ones) keep the older request first.
 */
export function sortOffers(
  requests: readonly ReceivedJobRequest[],
  order: OfferOrder,
): ReceivedJobRequest[] {
  const byAge = (a: ReceivedJobRequest, b: ReceivedJobRequest) =>
    a.createdAt.localeCompare(b.createdAt)
  const withOffer = requests.filter((request) => amountOf(request) !== null)
  return [...withOffer].sort((a, b) => {
    if (order === 'rating') {
      const ra = a.requester.rating?.average ?? -1
      const rb = b.requester.rating?.average ?? -1
      return (
        rb - ra ||
        (b.requester.rating?.count ?? 0) - (a.requester.rating?.count ?? 0) ||
        byAge(a, b)
      )
    }
    const difference = amountOf(a)! - amountOf(b)!
    return (order === 'amount-asc' ? difference : -difference) || byAge(a, b)
  })
}
