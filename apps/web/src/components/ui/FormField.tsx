import type { ReactNode } from 'react'
import './form-field.css'

/**
 * The one labelled field of every form: its label, its control (the children, which carry
 * `id`) and its hint underneath. The hint turns into an error line
 * once the field is `invalid`; the control points at it with
 * aria-describedby={hintIdOf(id)}.
 */
export function FormField({
  id,
  label,
  hint,
  invalid = false,
  optional = false,
  className,
  children,
  after,
}: {
  id: string
  label: ReactNode
  hint?: ReactNode
  invalid?: boolean
  optional?: boolean
  /** More classes for the field's box, for a form's own layout. */
  className?: string
  children: ReactNode
  /** What follows the hint: a control of the field's own, like a visibility toggle. */
  after?: ReactNode
}) {
  const classes = ['field', invalid && 'field-invalid', className].filter(Boolean).join(' ')
  return (
    <div className={classes}>
      <label htmlFor={id}>
        {label}
        {optional && <span className="muted"> (optional)</span>}
      </label>
      {children}
      {hint && (
        <p id={hintIdOf(id)} className={invalid ? 'field-error' : 'field-hint'}>
          {hint}
        </p>
      )}
      {after}
    </div>
  )
}

export const hintIdOf = (id: string) => `${id}-hint`
