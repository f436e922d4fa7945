import { Select } from '@/components/ui/ListControls'
import { STATUS_OPTIONS, statusLabel, type StatusFilter } from './request-status'

const STATUS_BADGE: Record<string, string> = {
  pending: 'badge badge-warning',
  accepted: 'badge badge-success',
  rejected: 'badge badge-danger',
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`${STATUS_BADGE[status] ?? 'badge'} status-badge`}>{statusLabel(status)}</span>
  )
}

export function StatusSelect({
  value,
  onChange,
}: {
  value: StatusFilter
  onChange: (value: StatusFilter) => void
}) {
  return <Select label="Status" value={value} options={STATUS_OPTIONS} onChange={onChange} />
}
