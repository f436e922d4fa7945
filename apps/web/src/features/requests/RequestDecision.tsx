import type { ReactNode } from 'react'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import { StatusBadge } from './RequestStatus'

/**
 * A pending request offers Accept and Decline; a decided one shows its
 * status and whatever the page allows next (`decided`: the undo or the delete button).
 */
export function RequestDecision({
  status,
  busy,
  onDecide,
  decided,
}: {
  status: string
  busy: boolean
  onDecide: (status: RequestStatus) => void
  decided: ReactNode
}) {
  if (status === 'pending') {
    return (
      <>
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={busy}
          onClick={() => onDecide('accepted')}
        >
          Accept
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={busy}
          onClick={() => onDecide('rejected')}
        >
          Decline
        </button>
      </>
    )
  }
  return (
    <>
      <StatusBadge status={status} />
      {decided}
    </>
  )
}
