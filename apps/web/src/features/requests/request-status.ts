import { REQUEST_STATUS_LABELS, type RequestStatus } from '@marketplace/contracts/marketplace'

/** A request list's status choice: every status, or one of them. */
export type StatusFilter = 'all' | RequestStatus

export const matchesStatus = (status: string, filter: StatusFilter) =>
  filter === 'all' || status === filter

/** Rejected reads "Declined". */
export const statusLabel = (status: string) =>
  REQUEST_STATUS_LABELS[status as RequestStatus] ?? status

export const STATUS_OPTIONS = [
  ['all', 'All'],
  ['pending', 'Pending'],
  ['accepted', 'Accepted'],
  ['rejected', 'Declined'],
] as const
