import { useState } from 'react'
import type { ReceivedJobRequest } from '@marketplace/contracts/api'
import { REQUEST_STATUS_LABELS, formatOfferAmount } from '@marketplace/contracts/marketplace'
import { Select } from '@/components/ui/ListControls'
import { OFFER_ORDER_OPTIONS, sortOffers, type OfferOrder } from './offer-order'
import './offers.css'

/**
 * The offers on each of the owner's posts side by side: who, how much, their rating and
 * requests done, when they propose; sorted by amount or by rating. Only posts with an offer.
 */
export function OffersComparison({ requests }: { requests: readonly ReceivedJobRequest[] }) {
  const [order, setOrder] = useState<OfferOrder>('amount-asc')
  const posts = new Map<string, { title: string; requests: ReceivedJobRequest[] }>()
  for (const request of requests) {
    if (!request.offer) continue
    const entry = posts.get(request.post._id) ?? { title: request.post.title, requests: [] }
    entry.requests.push(request)
    posts.set(request.post._id, entry)
  }
  if (posts.size === 0) return null

  return (
    <section className="offers-comparison" aria-labelledby="offers-comparison-title">
      <div className="offers-comparison-header">
        <h2 id="offers-comparison-title">Offers side by side</h2>
        <Select
          label="Sort offers"
          value={order}
          options={OFFER_ORDER_OPTIONS}
          onChange={setOrder}
        />
      </div>
      {[...posts].map(([postId, post]) => (
        <table key={postId} className="offers-table">
          <caption>{post.title}</caption>
          <thead>
            <tr>
              <th scope="col">Worker</th>
              <th scope="col">Amount</th>
              <th scope="col">Rating</th>
              <th scope="col">Requests done</th>
              <th scope="col">Proposed time</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {sortOffers(post.requests, order).map((request) => (
              <tr key={request._id}>
                <th scope="row">{request.requester.name}</th>
                <td>
                  {formatOfferAmount(request.agreed ?? request.offer!)}
                  {request.agreed && <span className="muted"> (agreed)</span>}
                </td>
                <td>
                  {request.requester.rating?.average != null
                    ? `${request.requester.rating.average} (${request.requester.rating.count})`
                    : 'Not rated yet'}
                </td>
                <td>{request.requester.completedRequests ?? 0}</td>
                <td>{request.offer?.proposedTime || '—'}</td>
                <td>{REQUEST_STATUS_LABELS[request.status]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </section>
  )
}
