import { REQUEST_STATUS_LABELS, type RequestStatus } from '@marketplace/contracts/marketplace'
import './requests.css'

/** The toolbars of the settings lists (spec 2 §2.8-§2.16): view, sort, status, reset. */
export type ListView = 'list' | 'grid'
export type DateOrder = 'recent' | 'oldest'
export type StatusFilter = 'all' | RequestStatus

/** spec 2 §9: most recent first by createdAt unless the user picks Oldest. */
export function sortByDate<T>(items: readonly T[], dateOf: (item: T) => string, order: DateOrder) {
  const time = (item: T) => {
    const value = Date.parse(dateOf(item))
    return Number.isNaN(value) ? 0 : value
  }
  return [...items].sort((a, b) => (order === 'recent' ? time(b) - time(a) : time(a) - time(b)))
}

export const matchesStatus = (status: string, filter: StatusFilter) =>
  filter === 'all' || status === filter

/** spec 2 §4: rejected reads "Declined". */
export const statusLabel = (status: string) =>
  REQUEST_STATUS_LABELS[status as RequestStatus] ?? status

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

export function ViewToggle({
  view,
  onChange,
}: {
  view: ListView
  onChange: (view: ListView) => void
}) {
  return (
    <div className="view-toggle" role="group" aria-label="View">
      {(['list', 'grid'] as const).map((option) => (
        <button
          key={option}
          type="button"
          className={view === option ? 'btn btn-small btn-primary' : 'btn btn-small'}
          aria-pressed={view === option}
          onClick={() => onChange(option)}
        >
          {option === 'list' ? 'List' : 'Grid'}
        </button>
      ))}
    </div>
  )
}

export function Select<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: T
  options: readonly (readonly [T, string])[]
  onChange: (value: T) => void
}) {
  return (
    <label className="toolbar-select">
      <span>{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value as T)}>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </label>
  )
}

export const SORT_OPTIONS = [
  ['recent', 'Recent'],
  ['oldest', 'Oldest'],
] as const

export const STATUS_OPTIONS = [
  ['all', 'All'],
  ['pending', 'Pending'],
  ['accepted', 'Accepted'],
  ['rejected', 'Declined'],
] as const

export function SortSelect({
  value,
  onChange,
  options = SORT_OPTIONS,
}: {
  value: DateOrder
  onChange: (value: DateOrder) => void
  options?: readonly (readonly [DateOrder, string])[]
}) {
  return <Select label="Sort" value={value} options={options} onChange={onChange} />
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

export function ResetButton({
  onClick,
  label = 'Reset Filters',
}: {
  onClick: () => void
  label?: string
}) {
  return (
    <button type="button" className="btn btn-small btn-ghost" onClick={onClick}>
      {label}
    </button>
  )
}

/** A trash can drawn inline: an emoji glyph is missing from many systems' fonts. */
function TrashIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
    </svg>
  )
}

/** A small icon button (a trash can unless told otherwise) with a name for screen readers. */
export function IconButton({
  label,
  onClick,
  symbol,
  disabled = false,
}: {
  label: string
  onClick: () => void
  symbol?: string
  disabled?: boolean
}) {
  return (
    <button
      type="button"
      className="icon-btn row-icon"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
    >
      <span aria-hidden="true">{symbol ?? <TrashIcon />}</span>
    </button>
  )
}
