import type { ReactNode } from 'react'
import type { DateOrder } from '@/lib/sort-by-date'
import { TrashIcon } from '@/components/icons/TrashIcon'
import './list-controls.css'

/** The toolbars of the settings lists: view, sort, a choice, reset. */
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

/**
 * A small icon button (a trash can unless told otherwise, one of components/icons) with a name
 * for screen readers.
 */
export function IconButton({
  label,
  onClick,
  icon,
  disabled = false,
}: {
  label: string
  onClick: () => void
  icon?: ReactNode
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
      {icon ?? <TrashIcon />}
    </button>
  )
}
