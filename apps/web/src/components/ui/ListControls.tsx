import type { DateOrder } from '@/lib/sort-by-date'
import './list-controls.css'

/** The toolbars of the settings lists (spec 2 §2.8-§2.16): view, sort, a choice, reset. */
export type ListView = 'list' | 'grid'

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
