import type { Static } from '@sinclair/typebox'
import { isOneOf, literalUnion } from './literal-union'

/** Request statuses; rejected is displayed as "Declined". */
export const REQUEST_STATUSES = ['pending', 'accepted', 'rejected'] as const
export const RequestStatusSchema = literalUnion(REQUEST_STATUSES)
export type RequestStatus = Static<typeof RequestStatusSchema>
export const isRequestStatus = (value: unknown): value is RequestStatus =>
  isOneOf(REQUEST_STATUSES, value)

export const REQUEST_STATUS_LABELS: Readonly<Record<RequestStatus, string>> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Declined',
}
