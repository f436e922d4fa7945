import type { ReactNode } from 'react'

/**
 * A labelled field with its hint underneath (spec 1 §5 "Hint: ..."). The hint turns into an
 * error line once the field is `invalid`; the input points at it with
 * aria-describedby={hintIdOf(id)}.
 */
export function FormField({
  id,
  label,
  hint,
  invalid = false,
  optional = false,
  children,
}: {
  id: string
  label: string
  hint?: ReactNode
  invalid?: boolean
  optional?: boolean
  children: ReactNode
}) {
  return (
    <div className={invalid ? 'field field-invalid' : 'field'}>
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
    </div>
  )
}

export const hintIdOf = (id: string) => `${id}-hint`
